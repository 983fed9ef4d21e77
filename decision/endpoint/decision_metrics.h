#pragma once
// What /metrics exports of the decision handler's counters (decision_handler.h): one
// family per counter by core, and the per-placement families summed over cores.
#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/placement_labels.h"
#include "runtime/cross_core_asks.h"
#include "runtime/metric_source.h"

namespace decision::endpoint {

extern const runtime::MetricTable<DecisionCounters> kDecisionMetricTable;
// The decisions asked of other cores: the owner-core route's (decision/user_state/owner_core_route.h).
extern const runtime::MetricTable<runtime::AskCounters> kDecisionAskMetricTable;

// What the per-placement families read: a core's counters, and the placement keys of the
// process (owned by main; null: every placement counts as "_other").
struct PlacementCounts {
  const DecisionCounters& counters;
  const PlacementLabels* labels;
};

extern const runtime::MetricTable<PlacementCounts> kPlacementMetricTable;

}  // namespace decision::endpoint
