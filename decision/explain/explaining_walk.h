#pragma once
// The decision of one request, walked again with every verdict kept (docs/explain.md).
//
// It decides with the decision's own code, not a copy of it: the same AdSelector::select
// (tiers, filters, the chosen set, the weighted draw), asked about targeting and caps
// through an EligibilityRule that notes each answer; the same TargetingRule, whose
// first_failing() is the list of checks eligible() runs; the cap store's const count(),
// which reads what allows() reads. Then it goes over every candidate of the placement in
// both formats and names the first rule that kept each one out.
//
// What it never touches: the core's random generator (a walk draws from its own, seeded
// afresh from --seed for each explain, so the same request explains the same way on any
// core), the core's TargetingRule and its metrics, cap state (read through a const store)
// and the event log. One walk per core; it allocates freely (an admin request).
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "caps/cap_store.h"
#include "decision/endpoint/served_catalog.h"
#include "decision/explain/explanation.h"
#include "decision/request/decision_request.h"
#include "decision/selection/ad_selector.h"
#include "decision/selection/core_random.h"
#include "decision/targeting/rules/targeting_rule.h"
#include "api_versions/version_features.h"

namespace decision::explain {

struct WalkInput {
  const endpoint::ServedCatalog& served;
  const request::DecisionRequest& request;
  const api_versions::VersionFeatures& features;
  int64_t now_s = 0;
};

class ExplainingWalk {
 public:
  // The generator's stream: CoreRandom(seed, kRandomStream), a core index no core has.
  static constexpr uint32_t kRandomStream = UINT32_MAX;

  ExplainingWalk(targeting::GeoSources geo, uint64_t seed);
  ExplainingWalk(const ExplainingWalk&) = delete;
  ExplainingWalk& operator=(const ExplainingWalk&) = delete;

  // A new GeoIP database: the walk's decoded records are forgotten with the old one.
  void set_geoip(const geo::GeoIpDatabase* geoip);
  // This core's share of the delivery goals, read only (null: goals are not paced).
  void set_pacing(const pacing::CorePacing* book) { pacing_ = book; }

  // Step one: the request's facts (its GeoIP record, zone, GDPR territory). Afterwards
  // user_id_usable() says whether caps apply, and so which core must take step two.
  void begin_request(const WalkInput& input);
  bool user_id_usable() const { return targeting_->user_id_usable(); }

  // Step two, with the same input: caps is the store of the core that owns user_key (this
  // core's), or null when caps do not apply. out is replaced.
  void explain(const WalkInput& input, const caps::CapReader* caps, std::optional<uint64_t> user_key,
               Explanation& out);

 private:
  // Answers the selector with the walk's verdicts.
  class NotingRule final : public selection::EligibilityRule {
   public:
    explicit NotingRule(ExplainingWalk& walk) : walk_(walk) {}
    bool eligible(const catalog::Ad& ad, uint32_t ad_index) override;

   private:
    ExplainingWalk& walk_;
  };

  // The ad's own verdict in the current placement, worked out once.
  const AdVerdict& verdict(uint32_t ad_index);
  void work_out(uint32_t ad_index, AdVerdict& out);
  void note_facts(const WalkInput& input, RequestFacts& facts) const;
  void explain_placement(const WalkInput& input, uint32_t request_index, PlacementExplanation& out);
  void note_tiers(uint32_t placement_index, uint32_t count, PlacementExplanation& out);
  void list_candidates(uint32_t placement_index, PlacementExplanation& out);
  // The first of the ad's own rules, with the chosen set in its place (AdSelector::passes).
  std::optional<Rule> first_own_rule(uint32_t ad_index, const AdVerdict& verdict) const;

  targeting::GeoSources geo_;
  uint64_t seed_ = 0;
  std::unique_ptr<targeting::TargetingRule> targeting_;
  selection::CoreRandom random_;
  selection::AdSelector selector_{random_};
  selection::ChosenAds chosen_;
  NotingRule noting_{*this};

  // Per request.
  const WalkInput* input_ = nullptr;
  const catalog::CatalogSnapshot* snapshot_ = nullptr;
  const caps::CapReader* caps_ = nullptr;
  const pacing::CorePacing* pacing_ = nullptr;
  uint64_t user_key_ = 0;
  const request::PlacementRequest* placement_ = nullptr;
  absl::flat_hash_map<uint32_t, uint32_t> chosen_by_;  // ad index -> placement (request order)
  // Per placement.
  absl::flat_hash_map<uint32_t, uint32_t> verdict_slot_;  // ad index -> verdicts_
  std::deque<AdVerdict> verdicts_;  // references stay valid as it grows
};

}  // namespace decision::explain
