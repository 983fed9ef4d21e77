#pragma once
// What makes a decision cheap, computed once per catalog: placement key -> placement, and
// per placement and format the candidate ads grouped by tier, heaviest tier first, each
// group's ad indexes and weights in contiguous arrays that WeightedSampler takes as they
// are (decision/selection/weighted_sampler.h). Flight dates are not indexed: an ad's
// start/end is checked against the clock at decision time, and next_flight_change_s says
// when the set of active ads can next change. Lookups allocate nothing.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "decision/catalog/model.h"

namespace decision::catalog {

// A request's format filter. kAny is both formats, merged per tier in file order.
enum class FormatFilter : uint8_t { kNative = 0, kVideo = 1, kAny = 2 };
inline constexpr size_t kFormatFilterCount = 3;

// One tier's candidates for one placement and format. weights[i] is the weight of
// ad_indexes[i]; a caller that filters copies the weights and zeroes the excluded ones.
struct TierCandidates {
  uint32_t tier_index = 0;  // into CatalogData::priorities
  uint32_t tier_weight = 0;
  std::span<const uint32_t> ad_indexes;  // into CatalogData::ads, file order
  std::span<const uint32_t> weights;
};

class CatalogIndex {
 public:
  // data must be valid (every index in range), as load_catalog guarantees.
  explicit CatalogIndex(const CatalogData& data);
  // The spans handed out point into this object's arrays: it stays where it was built.
  CatalogIndex(const CatalogIndex&) = delete;
  CatalogIndex& operator=(const CatalogIndex&) = delete;

  // Index into CatalogData::placements of the placement with this key.
  std::optional<uint32_t> placement_index(std::string_view key) const;
  // Tiers in descending weight; tiers without a candidate are left out.
  std::span<const TierCandidates> candidates(uint32_t placement_index, FormatFilter format) const;
  // The largest tier anywhere: the scratch space a sampler needs.
  size_t max_tier_size() const { return max_tier_size_; }
  // The first start or end of any ad strictly after now_s; kNoEnd when none is left.
  int64_t next_flight_change_s(int64_t now_s) const;

 private:
  struct ListRange {
    uint32_t begin = 0;  // into tiers_
    uint32_t end = 0;
  };
  struct TierRange {
    uint32_t tier_index = 0;
    uint32_t begin = 0;  // into ad_pool_ and weight_pool_
    uint32_t end = 0;
  };
  void add_lists(const CatalogData& data, std::span<const uint32_t> tier_order,
                 std::span<const uint32_t> ads_of_placement, std::vector<TierRange>& ranges);
  void add_flight_changes(const CatalogData& data);

  std::vector<uint32_t> ad_pool_;
  std::vector<uint32_t> weight_pool_;
  std::vector<TierCandidates> tiers_;
  std::vector<ListRange> lists_;  // placement * kFormatFilterCount + format
  absl::flat_hash_map<std::string, uint32_t> placement_by_key_;
  std::vector<int64_t> flight_changes_s_;  // sorted, unique
  size_t max_tier_size_ = 0;
};

}  // namespace decision::catalog
