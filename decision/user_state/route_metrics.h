#pragma once
// A route's families (user_state_route.h): the same in both modes, registered with a
// state="core" (embedded mode: the owner core's partition) or state="cluster" (the shared
// store) label. The family the cluster mode exported before them stays one release as an
// alias (docs/operations.md, "Renamed families").
#include "decision/user_state/user_state_route.h"
#include "runtime/metric_source.h"

namespace decision::user_state {

extern const runtime::MetricTable<RouteCounters> kRouteMetricTable;
// Cluster mode only, until the release after next: decisiond_caps_store_unavailable_total.
extern const runtime::MetricTable<RouteCounters> kRouteAliasMetricTable;

}  // namespace decision::user_state
