#pragma once
// What /metrics exports of the explain handler's counters (explain_handler.h), one family
// per counter by core, named as the decision ones are (docs/explain.md "Metrics").
#include "decision/explain/explain_handler.h"
#include "runtime/cross_core_asks.h"
#include "runtime/metric_source.h"

namespace decision::explain {

extern const runtime::MetricTable<ExplainCounters> kExplainMetricTable;
// The explains asked of other cores: the owner-core route's (decision/user_state/owner_core_route.h).
extern const runtime::MetricTable<runtime::AskCounters> kExplainAskMetricTable;

}  // namespace decision::explain
