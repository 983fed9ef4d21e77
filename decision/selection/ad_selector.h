#pragma once
// Picks the ads of one placement request (docs/decision-response.md, "Candidates and
// selection"): candidates of the placement and format, active now, passing the request's
// advertiser and template filters and any further eligibility rule (targeting, caps); tiers
// heaviest first; within a tier weighted random without replacement; one creative per ad, at
// random; an ad already chosen for this request (any placement) is never chosen again.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "decision/catalog/snapshot.h"
#include "decision/selection/core_random.h"

namespace decision::selection {

struct Pick {
  uint32_t ad_index = 0;        // into the snapshot's ads
  uint32_t creative_index = 0;  // into that ad's creatives
};

struct PlacementFilter {
  catalog::FormatFilter format = catalog::FormatFilter::kNative;
  std::optional<uint64_t> advertiser_id;
  std::optional<uint64_t> template_id;
};

// The rules selection itself does not know (targeting, frequency caps): asked only for
// ads that passed everything else, so the costlier checks run last.
class EligibilityRule {
 public:
  virtual ~EligibilityRule() = default;
  virtual bool eligible(const catalog::Ad& ad, uint32_t ad_index) = 0;
};

// The ads a request has chosen so far, across its placements. Bounded by the request's
// own bound: 20 placements of at most 10 ads.
class ChosenAds {
 public:
  static constexpr uint32_t kCapacity = 200;
  void clear() { count_ = 0; }
  bool contains(uint32_t ad_index) const;
  void add(uint32_t ad_index);

 private:
  uint32_t ads_[kCapacity];
  uint32_t count_ = 0;
};

class AdSelector {
 public:
  explicit AdSelector(CoreRandom& random) : random_(random) {}

  // Writes up to out.size() picks for the placement, heaviest tier first, and returns how
  // many. Allocates only when a snapshot has a larger tier than any seen before.
  uint32_t select(const catalog::CatalogSnapshot& snapshot, uint32_t placement_index,
                  const PlacementFilter& filter, int64_t now_s, EligibilityRule* rule,
                  ChosenAds& chosen, std::span<Pick> out);

 private:
  bool passes(const catalog::CatalogSnapshot& snapshot, uint32_t ad_index, const PlacementFilter& filter,
              int64_t now_s, EligibilityRule* rule, const ChosenAds& chosen) const;

  CoreRandom& random_;
  std::vector<uint32_t> weights_;   // the tier's weights, 0 for ineligible candidates
  std::vector<uint32_t> scratch_;   // the sampler's working copy
  std::vector<uint32_t> drawn_;     // candidate positions drawn from the tier
};

}  // namespace decision::selection
