#pragma once
// What /metrics exports of an HTTP server's counters (server_metrics.h). A core registers
// it once per listener, labelled listener="public" or listener="admin".
#include "http/server_metrics.h"
#include "runtime/metric_source.h"

namespace http {

extern const runtime::MetricTable<ServerMetrics> kServerMetricTable;

}  // namespace http
