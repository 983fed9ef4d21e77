#include "decision/catalog/index.h"

#include <algorithm>
#include <numeric>

#include "runtime/absl_view.h"
#include "runtime/check.h"

namespace decision::catalog {
namespace {

bool matches(Format format, FormatFilter filter) {
  return filter == FormatFilter::kAny ||
         static_cast<uint8_t>(format) == static_cast<uint8_t>(filter);
}

// Tier indexes, heaviest first. Weights are unique (the loader refuses ties), the index
// breaks ties anyway so the order never depends on the sort algorithm.
std::vector<uint32_t> tiers_by_weight(const CatalogData& data) {
  std::vector<uint32_t> order(data.priorities.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const uint32_t wa = data.priorities[a].weight, wb = data.priorities[b].weight;
    return wa != wb ? wa > wb : a < b;
  });
  return order;
}

// For each placement, its ads in file order.
std::vector<std::vector<uint32_t>> ads_by_placement(const CatalogData& data) {
  std::vector<std::vector<uint32_t>> ads_of(data.placements.size());
  for (uint32_t a = 0; a < data.ads.size(); ++a) {
    for (uint32_t p : data.ads[a].placement_indexes) {
      DECISIOND_CHECK_MSG(p < ads_of.size(), "an ad of a placement the catalog does not have");
      if (ads_of[p].empty() || ads_of[p].back() != a) ads_of[p].push_back(a);
    }
  }
  return ads_of;
}

}  // namespace

CatalogIndex::CatalogIndex(const CatalogData& data) {
  const std::vector<uint32_t> tier_order = tiers_by_weight(data);
  const std::vector<std::vector<uint32_t>> ads_of = ads_by_placement(data);
  std::vector<TierRange> ranges;
  lists_.reserve(data.placements.size() * kFormatFilterCount);
  for (uint32_t p = 0; p < data.placements.size(); ++p) {
    add_lists(data, tier_order, ads_of[p], ranges);
    placement_by_key_.emplace(data.placements[p].key, p);
  }
  // The pools are complete: only now may spans point into them.
  tiers_.reserve(ranges.size());
  for (const TierRange& r : ranges) {
    const std::span<const uint32_t> ads(ad_pool_.data() + r.begin, r.end - r.begin);
    const std::span<const uint32_t> weights(weight_pool_.data() + r.begin, r.end - r.begin);
    tiers_.push_back({r.tier_index, data.priorities[r.tier_index].weight, ads, weights});
    max_tier_size_ = std::max<size_t>(max_tier_size_, ads.size());
  }
  add_flight_changes(data);
}

void CatalogIndex::add_lists(const CatalogData& data, std::span<const uint32_t> tier_order,
                             std::span<const uint32_t> ads_of_placement,
                             std::vector<TierRange>& ranges) {
  for (FormatFilter format : {FormatFilter::kNative, FormatFilter::kVideo, FormatFilter::kAny}) {
    ListRange list{static_cast<uint32_t>(ranges.size()), 0};
    for (uint32_t tier : tier_order) {
      const auto begin = static_cast<uint32_t>(ad_pool_.size());
      for (uint32_t a : ads_of_placement) {
        const Ad& ad = data.ads[a];
        if (ad.tier_index != tier || !matches(ad.format, format)) continue;
        ad_pool_.push_back(a);
        weight_pool_.push_back(ad.weight);
      }
      const auto end = static_cast<uint32_t>(ad_pool_.size());
      if (end > begin) ranges.push_back({tier, begin, end});
    }
    list.end = static_cast<uint32_t>(ranges.size());
    lists_.push_back(list);
  }
}

void CatalogIndex::add_flight_changes(const CatalogData& data) {
  for (const Ad& ad : data.ads) {
    flight_changes_s_.push_back(ad.start_s);
    if (ad.has_end()) flight_changes_s_.push_back(ad.end_s);
  }
  std::sort(flight_changes_s_.begin(), flight_changes_s_.end());
  flight_changes_s_.erase(std::unique(flight_changes_s_.begin(), flight_changes_s_.end()),
                          flight_changes_s_.end());
}

std::optional<uint32_t> CatalogIndex::placement_index(std::string_view key) const {
  // StringHash is transparent over absl::string_view: no std::string is built.
  const auto it = placement_by_key_.find(runtime::av(key));
  if (it == placement_by_key_.end()) return std::nullopt;
  return it->second;
}

std::span<const TierCandidates> CatalogIndex::candidates(uint32_t placement_index,
                                                         FormatFilter format) const {
  const size_t slot = size_t{placement_index} * kFormatFilterCount + static_cast<size_t>(format);
  if (slot >= lists_.size()) return {};
  const ListRange list = lists_[slot];
  return std::span<const TierCandidates>(tiers_).subspan(list.begin, list.end - list.begin);
}

int64_t CatalogIndex::next_flight_change_s(int64_t now_s) const {
  const auto it = std::upper_bound(flight_changes_s_.begin(), flight_changes_s_.end(), now_s);
  return it == flight_changes_s_.end() ? kNoEnd : *it;
}

}  // namespace decision::catalog
