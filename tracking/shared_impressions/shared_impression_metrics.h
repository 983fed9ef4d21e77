#pragma once
// What /metrics exports of the shared impression counter (cluster mode), by core, beside
// the families every mode shares (impression_sink/impression_sink_metrics.h).
#include "runtime/metric_source.h"
#include "tracking/shared_impressions/shared_impression_counter.h"

namespace tracking::shared_impressions {

extern const runtime::MetricTable<SharedImpressionCounters> kSharedImpressionMetricTable;
// The names cluster mode exported before the shared families, kept one release
// (docs/operations.md, "Renamed families").
extern const runtime::MetricTable<SharedImpressionCounters> kSharedImpressionAliasMetricTable;

}  // namespace tracking::shared_impressions
