#include "decision/endpoint/served_catalog.h"

#include "runtime/check.h"

namespace decision::endpoint {
namespace {

std::vector<uint8_t> slots_of(const catalog::CatalogSnapshot& snapshot, PlacementLabels* labels) {
  std::vector<uint8_t> slots(snapshot.placements().size(), PlacementLabels::kOtherSlot);
  if (labels == nullptr) return slots;
  for (size_t i = 0; i < slots.size(); ++i) slots[i] = labels->slot_for(snapshot.placements()[i].key);
  return slots;
}

FormatCounts ads_by_format(const catalog::CatalogSnapshot& snapshot) {
  FormatCounts counts{};
  for (const catalog::Ad& ad : snapshot.ads()) ++counts[static_cast<size_t>(ad.format)];
  return counts;
}

FormatCounts placements_by_format(const catalog::CatalogSnapshot& snapshot) {
  FormatCounts counts{};
  for (uint32_t p = 0; p < snapshot.placements().size(); ++p) {
    if (!snapshot.index().candidates(p, catalog::FormatFilter::kNative).empty()) ++counts[static_cast<size_t>(catalog::Format::kNative)];
    if (!snapshot.index().candidates(p, catalog::FormatFilter::kVideo).empty()) ++counts[static_cast<size_t>(catalog::Format::kVideo)];
  }
  return counts;
}

std::vector<bool> placement_has_caps(const catalog::CatalogSnapshot& snapshot) {
  std::vector<bool> capped(snapshot.placements().size(), false);
  for (uint32_t p = 0; p < capped.size(); ++p) {
    for (const catalog::TierCandidates& tier : snapshot.index().candidates(p, catalog::FormatFilter::kAny)) {
      for (uint32_t ad : tier.ad_indexes) capped[p] = capped[p] || !snapshot.ads()[ad].frequency_caps.empty();
    }
  }
  return capped;
}

// In ad order, so goal i is the one whose DeliveryGoal::index is i (CatalogSnapshot).
std::vector<pacing::PacedGoal> paced_goals(const catalog::CatalogSnapshot& snapshot) {
  std::vector<pacing::PacedGoal> goals;
  for (const catalog::Ad& ad : snapshot.ads()) {
    if (!ad.delivery) continue;
    DECISIOND_CHECK_MSG(ad.delivery->index == goals.size(), "a goal out of the snapshot's numbering");
    goals.push_back({ad.id, {*ad.delivery, ad.start_s, ad.end_s}});
  }
  return goals;
}

}  // namespace

ServedCatalog::ServedCatalog(std::shared_ptr<const catalog::CatalogSnapshot> loaded, PlacementLabels* labels)
    : snapshot(std::move(loaded)),
      text(*snapshot),
      custom_programs(snapshot->ads()),
      placement_slots(slots_of(*snapshot, labels)),
      ads_by_format(endpoint::ads_by_format(*snapshot)),
      placements_by_format(endpoint::placements_by_format(*snapshot)),
      placement_has_caps(endpoint::placement_has_caps(*snapshot)),
      paced_goals(endpoint::paced_goals(*snapshot)) {}

}  // namespace decision::endpoint
