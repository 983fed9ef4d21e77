#pragma once
// What /metrics exports of the tracking handler's counters (tracking_handler.h), by core.
#include "runtime/metric_source.h"
#include "tracking/endpoint/tracking_handler.h"

namespace tracking::endpoint {

extern const runtime::MetricTable<TrackingCounters> kTrackingMetricTable;

}  // namespace tracking::endpoint
