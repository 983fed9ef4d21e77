#pragma once
// What /metrics exports of the tracking handler's counters (tracking_handler.h), by core.
#include "runtime/cross_core_asks.h"
#include "runtime/metric_source.h"
#include "tracking/endpoint/tracking_handler.h"

namespace tracking::endpoint {

// The token verdicts, then (after the impression asks) the calls by kind.
extern const runtime::MetricTable<TrackingCounters> kTrackingMetricTable;
extern const runtime::MetricTable<TrackingCounters> kTrackingCallMetricTable;
// The impressions asked of their counting core: OwnerCoreImpressions::ask_counters()
// (tracking/impression_sink/owner_core_impressions.h).
extern const runtime::MetricTable<runtime::AskCounters> kImpressionAskMetricTable;

}  // namespace tracking::endpoint
