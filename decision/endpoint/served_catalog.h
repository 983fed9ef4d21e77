#pragma once
// A catalog as the cores serve it: the snapshot and what is derived from it once, off the
// request path: the response writer's pre-escaped text, the compiled `custom` rules and
// what metrics read (each placement's label slot, ads and placements by format).
// Published to every core as one shared_ptr, and freed when the last core lets go of it
// (a catalog swap replaces the pointer each core holds, never the object).
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "decision/catalog/snapshot.h"
#include "decision/endpoint/placement_labels.h"
#include "decision/pacing/node_pacing.h"
#include "decision/response/catalog_text.h"
#include "decision/targeting/custom/custom_programs.h"

namespace decision::endpoint {

// Indexed by catalog::Format.
using FormatCounts = std::array<uint32_t, 2>;

struct ServedCatalog {
  // labels: the process's placement labels, which this catalog's keys join while slots are
  // left; null (tests, benchmarks): every placement counts as "other".
  explicit ServedCatalog(std::shared_ptr<const catalog::CatalogSnapshot> loaded, PlacementLabels* labels = nullptr);

  const std::shared_ptr<const catalog::CatalogSnapshot> snapshot;
  const response::CatalogText text;  // views into *snapshot
  const targeting::CustomPrograms custom_programs;
  // By CatalogData::placements index: the slot its decisions are counted in.
  const std::vector<uint8_t> placement_slots;
  const FormatCounts ads_by_format;
  const FormatCounts placements_by_format;  // placements with at least one ad of the format
  // By placement index: whether any of its ads carries a frequency cap. A decision for
  // placements without one never asks a shared cap store.
  const std::vector<bool> placement_has_caps;
  // The ads with a delivery goal (docs/pacing.md), in catalog order.
  const std::vector<pacing::PacedGoal> paced_goals;
};

inline std::shared_ptr<const ServedCatalog> make_served_catalog(
    std::shared_ptr<const catalog::CatalogSnapshot> snapshot, PlacementLabels* labels = nullptr) {
  return std::make_shared<const ServedCatalog>(std::move(snapshot), labels);
}

}  // namespace decision::endpoint
