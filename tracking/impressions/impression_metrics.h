#pragma once
// What /metrics exports of the impression counter (impression_counter.h), by owner core.
#include "runtime/metric_source.h"
#include "tracking/impressions/impression_counter.h"

namespace tracking::impressions {

extern const runtime::MetricTable<ImpressionCounters> kImpressionMetricTable;

}  // namespace tracking::impressions
