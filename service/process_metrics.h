#pragma once
// What /metrics exports about the process as a whole (process_view.h): how it runs and
// since when, read from the core answering the scrape.
#include "runtime/metric_source.h"
#include "service/process_view.h"

namespace service {

extern const runtime::MetricTable<ProcessView> kProcessMetricTable;

}  // namespace service
