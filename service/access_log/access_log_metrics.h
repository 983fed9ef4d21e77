#pragma once
// What /metrics exports of a core's access log (access_log.h; docs/access-log.md), by core:
// its line writer's counters, all zero while --access-log-sample is 0.
#include "runtime/line_log.h"
#include "runtime/metric_source.h"

namespace service::access_log {

extern const runtime::MetricTable<runtime::LineLogCounters> kAccessLogMetricTable;

}  // namespace service::access_log
