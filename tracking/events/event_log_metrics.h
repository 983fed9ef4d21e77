#pragma once
// What /metrics exports of a core's event log (event_log.h): its counters, by core, with
// the fdatasync histogram summed over cores; then its health, which is the log's own state
// rather than a counter, in a second table of one family.
#include "runtime/metric_source.h"
#include "tracking/events/event_log.h"

namespace tracking::events {

extern const runtime::MetricTable<EventLogCounters> kEventLogMetricTable;
extern const runtime::MetricTable<EventLog> kEventLogHealthMetricTable;

}  // namespace tracking::events
