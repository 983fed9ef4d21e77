#pragma once
// What /metrics exports of one-way posts (one_way_post.h), by core: the messages that could
// not go at once, which within the queue budget should stay at zero.
#include "runtime/metric_source.h"
#include "runtime/one_way_counters.h"

namespace runtime {

extern const MetricTable<OneWayCounters> kOneWayPostMetricTable;

}  // namespace runtime
