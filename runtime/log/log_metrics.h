#pragma once
// What /metrics exports of the logger: lines written by level and held back by the rate
// limit (the process's, read from the answering core), and lines each core dropped at a full
// queue (docs/operations.md "Logs").
#include "runtime/log/core_lines.h"
#include "runtime/log/line_output.h"
#include "runtime/metric_source.h"

namespace runtime::log {

extern const MetricTable<LogCounters> kLogMetricTable;
extern const MetricTable<CoreLogCounters> kCoreLogMetricTable;

// What a core registers: its own queue's counters (on its thread) and the process's.
const CoreLogCounters& this_core_log_counters();
const LogCounters& log_counters();

}  // namespace runtime::log
