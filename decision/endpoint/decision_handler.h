#pragma once
// POST /v1/decision on one core (docs/decision-request.md, docs/decision-response.md):
//   1-3. the intake (decision_intake.h): version, media type, the body read and validated;
//   4. a user whose id may be used and whom another core owns (hash(user.id) % cores): the
//      decision is asked of that core (decision_ask.h), which runs these steps again with
//      its own cap partition while this core serves other connections;
//   5. per placement, in request order: its ads chosen (unknown key: no creatives and
//      warning 20003), never the same ad twice in one response, frequency caps read from
//      this core's partition;
//   6. the 200 body, tracking tokens sealed into it.
// Every reply past step 1 echoes the version served.
//
// Everything a decision touches is owned by the handler and reused, so a warm core
// allocates nothing per request; the clock is read once per request.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "caps/cap_store.h"
#include "decision/capping/frequency_cap_rule.h"
#include "decision/pacing/pacing_rule.h"
#include "caps/shared_cap_store.h"
#include "decision/endpoint/cap_read_wait.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/endpoint/decision_intake.h"
#include "decision/endpoint/kept_intakes.h"
#include "decision/endpoint/placement_labels.h"
#include "decision/endpoint/request_ids.h"
#include "decision/endpoint/served_catalog.h"
#include "decision/request/request_reader.h"
#include "decision/response/response_writer.h"
#include "decision/selection/ad_selector.h"
#include "decision/selection/core_random.h"
#include "decision/targeting/rules/targeting_rule.h"
#include "api_versions/version_resolver.h"
#include "http/router.h"
#include "invalid_traffic/robot_verdicts.h"
#include "runtime/clock.h"
#include "runtime/core_channel.h"
#include "runtime/core_counter.h"
#include "runtime/cross_core_asks.h"
#include "tracking/events/event_log.h"
#include "tracking/core_keys/core_keys.h"

namespace decision::endpoint {

struct DecisionSettings {
  std::string base_url;          // --base-url, no trailing slash
  int64_t tracking_ttl_s = 3600; // --tracking-ttl
  int64_t vast_tag_ttl_s = 900;  // --vast-tag-ttl
  uint64_t seed = 0;             // --seed, or one drawn at start
  size_t max_body_bytes = request::RequestReader::kDefaultCapacityBytes;
  int64_t process_start_wall_ns = 0;
  targeting::GeoSources geo;     // --geonames-dir, --geoip-db (either may be absent)
  uint32_t max_cross_core_asks = 1024;  // --max-cross-core-asks: decisions handed over at once
  // Parses kept with decisions waiting for the shared cap store (kept_intakes.h): cluster
  // mode's wiring sets kKeptIntakesInClusterMode; embedded mode keeps none.
  uint32_t kept_intakes = 0;
};

class DecisionHandler;

// What ties one core's handler to the others. The peers table is filled before any core
// serves and never changed; a core reads another's entry only to address a message to it.
struct CoreLinks {
  runtime::CoreChannel* channel = nullptr;
  runtime::AskPeers<DecisionAsk>* peers = nullptr;  // every core's decision asks; null: one core
  caps::CapStore* caps = nullptr;  // this core's partition: the users hash(id) % cores == core
  tracking::events::EventLog* log = nullptr;  // this core's: a line per creative served
  // Cluster mode: the store shared by every node, asked directly from any core (no owner
  // hop); null in embedded mode.
  caps::SharedCapStore* shared_caps = nullptr;
  // This core's share of the delivery goals (docs/pacing.md); null: goals are not paced
  // (tests and benchmarks).
  pacing::CorePacing* pacing = nullptr;
};

// One placement label's share of the decisions served (200), known keys only. Fill rate
// is filled / requested: the share of requests for the placement that got a creative.
struct PlacementCounters {
  runtime::CoreCounter requested;  // times the placement was asked for
  runtime::CoreCounter filled;     // of which answered with at least one creative
  runtime::CoreCounter creatives;  // creatives served in it
};

// Per core, single writer; read by metrics scrapes.
struct DecisionCounters {
  runtime::CoreCounter decisions;            // 200 replies
  runtime::CoreCounter creatives;            // creatives in them
  runtime::CoreCounter empty_placements;     // known placements answered with no creative
  runtime::CoreCounter unknown_placements;   // warning 20003
  runtime::CoreCounter language_fallbacks;   // warning 20004 (per placement)
  runtime::CoreCounter language_missing;     // warning 20001
  runtime::CoreCounter rejected_versions;    // 400 10042 and 410 10043
  runtime::CoreCounter wrong_media_type;     // 415
  runtime::CoreCounter invalid_bodies;       // 400 10001 and 422
  runtime::CoreCounter token_failures;       // 500: a tracking token could not be sealed
  runtime::CoreCounter custom_evaluations;   // CEL targeting rules run
  runtime::CoreCounter custom_errors;        // of which ended in an error (ad not eligible)
  runtime::CoreCounter capped_ads;           // candidates refused by a frequency cap
  runtime::CoreCounter paced_out;            // candidates kept out by a delivery goal's pacing
  // Cluster mode: decisions made without their capped ads, the shared cap store not having
  // answered in time (or too many decisions waiting for it).
  runtime::CoreCounter caps_store_unavailable;
  // Cluster mode: decisions that waited for the store with no intake free to keep their
  // parse (kept_intakes.h): their body was copied and parsed again.
  runtime::CoreCounter parsed_again;
  runtime::CoreCounter robots;               // warning 20005: a declared robot's decision, no creatives
  // By label slot (placement_labels.h; ServedCatalog::placement_slots), counted where the
  // decision is made (the user's owner core).
  std::array<PlacementCounters, PlacementLabels::kSlots> by_placement;
};

class DecisionHandler final : public http::Handler, public CapReadWaiter {
 public:
  // versions and keys (the core's keys in force, which seal every token and tag) must
  // outlive the handler.
  DecisionHandler(const runtime::Clock& clock, uint32_t core_index,
                  const api_versions::VersionTable& versions, tracking::CoreKeys& keys,
                  const DecisionSettings& settings, std::shared_ptr<const ServedCatalog> catalog,
                  const CoreLinks& links);

  void handle(const http::Request& request, http::Response& response) override;

  // The two ends of a decision asked of another core (runtime/cross_core_asks.h): on the
  // owner core, decide; back home, reply to the waiting connection.
  void serve_ask(DecisionAsk& ask, uint32_t from_core);
  bool finish_ask(DecisionAsk& ask) { return ask.complete(); }
  // Cluster mode: the user's cap state came back (null: not in time); decide and reply.
  void finish_cap_read(CapReadWait& wait, const caps::CapReader* state) override;
  // Decisions handed over (sent), decided here for others (served), refused at a bound
  // (503 10098) and answered after the client left (abandoned).
  const runtime::AskCounters& ask_counters() const { return asks_.counters(); }
  uint32_t asks_in_flight() const { return asks_.in_flight(); }

  // The core's catalog: replaced on this core's thread only.
  void set_catalog(std::shared_ptr<const ServedCatalog> catalog) { catalog_ = std::move(catalog); }
  // The core's GeoIP database (null: none): replaced on this core's thread only, between
  // requests; the record cache follows the new database by its identity.
  void set_geoip(const geo::GeoIpDatabase* geoip) { targeting_.set_geoip(geoip); }
  const DecisionCounters& counters() const { return counters_; }
  // Request bodies read (parsed), over every intake: once per decision, unless a wait for
  // the store found no intake free to keep its parse.
  uint64_t bodies_read() const { return intakes_.reads(); }

 private:
  // How a request reached this decision: from the client; handed over by another core,
  // which found this one owns the user (decided here whatever the hash says); or replayed
  // once the shared cap store answered (cluster mode), with fetched_caps_ its state.
  enum class Arrival : uint8_t { kDirect, kForwarded, kCapsRead };
  void serve(const http::Request& request, http::Response& response, Arrival arrival);
  // Steps 4 to 6, for a request the intake accepted.
  void decide(const http::Request& request, int64_t now_s, http::Response& response, Arrival arrival);
  // Cluster mode: the cap state to decide with, or nullptr once the request waits for the
  // store (the reply then comes from finish_cap_read).
  const caps::CapReader* shared_caps_for(const ServedCatalog& served, const http::Request& request,
                                         http::Response& response, uint64_t user_key, Arrival arrival);
  bool asks_for_capped_placements(const ServedCatalog& served) const;
  // Step 4: asks owner_core to decide; false when no ask can be made (at a bound).
  bool forward(const http::Request& request, http::Response& response, uint32_t owner_core);
  // Where the agent that declares a robot was read, or kNone: the request is not a
  // robot's (docs/invalid-traffic.md).
  response::RobotAgent robot_agent(const http::Request& request);
  // A robot's decision: every placement answered with no creative, warning 20005.
  void serve_robot(const ServedCatalog& served, const http::Request& request, int64_t now_s,
                   http::Response& response, response::RobotAgent robot);
  // Placement i of the request: its key, its index in the catalog (an unknown key
  // counted), no picks yet.
  response::PlacementDecision& resolve_placement(const ServedCatalog& served, size_t i);
  // Steps 5 and 6 on this core's partition.
  void select_placements(const ServedCatalog& served, const api_versions::VersionFeatures& features,
                         int64_t now_s);
  DecisionIntake& intake() { return intakes_.current(); }
  const DecisionIntake& intake() const { return intakes_.current(); }
  // False when the reply is a 500 (a token could not be sealed): nothing was served.
  bool write_reply(const ServedCatalog& served, const http::Request& request, int64_t now_s,
                   http::Response& response, response::RobotAgent robot = response::RobotAgent::kNone);
  // With a serve window, every capped ad just served counts as pending (docs/caps.md).
  void hold_pending_serves(const ServedCatalog& served, uint64_t user_key, int64_t now_s);

  const runtime::Clock& clock_;
  std::shared_ptr<const ServedCatalog> catalog_;
  // Cluster mode keeps the parses of decisions waiting for the store (kept_intakes.h).
  KeptIntakes intakes_;
  response::TrackingLinks links_;
  video::VastDocumentWriter documents_;
  response::VideoFields video_;
  response::ResponseWriter writer_;
  selection::CoreRandom random_;
  selection::AdSelector selector_{random_};
  selection::ChosenAds chosen_;
  targeting::TargetingRule targeting_;
  capping::FrequencyCapRule cap_rule_{targeting_};
  pacing::PacingRule pacing_rule_;
  RequestIds request_ids_;
  CoreLinks core_links_;
  uint32_t core_index_ = 0;
  runtime::CrossCoreAsks<DecisionAsk> asks_;
  // Cluster mode: decisions waiting for the shared cap store, bounded by the pool.
  CapReadWaits cap_reads_;
  const caps::CapReader* fetched_caps_ = nullptr;  // during a kCapsRead replay
  capping::CapsUnavailable caps_unavailable_;
  std::array<selection::Pick, request::kMaxPlacements * request::kCountMax> picks_{};
  std::array<response::PlacementDecision, request::kMaxPlacements> placements_{};
  DecisionCounters counters_;
  invalid_traffic::RobotVerdicts robots_{invalid_traffic::RobotMatcher::instance()};
};

}  // namespace decision::endpoint
