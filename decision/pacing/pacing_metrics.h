#pragma once
// Delivery goals on /metrics (docs/operations.md "Health and metrics", docs/pacing.md):
// delivered against goal and target for the first kLabelledGoals goals by ad id, and every
// goal counted by status. Read from the answering core's book: after each round every
// core holds the same node-wide figures, and a scrape runs on the core it reads.
#include <cstdint>

#include "decision/pacing/core_pacing.h"
#include "runtime/metric_source.h"

namespace decision::pacing {

inline constexpr uint32_t kLabelledGoals = 100;

extern const runtime::MetricTable<CorePacing> kPacingMetricTable;

}  // namespace decision::pacing
