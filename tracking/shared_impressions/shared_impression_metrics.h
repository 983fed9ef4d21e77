#pragma once
// What /metrics exports of the shared impression counter (cluster mode), by core.
#include "runtime/metric_source.h"
#include "tracking/shared_impressions/shared_impression_counter.h"

namespace tracking::shared_impressions {

extern const runtime::MetricTable<SharedImpressionCounters> kSharedImpressionMetricTable;

}  // namespace tracking::shared_impressions
