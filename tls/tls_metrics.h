#pragma once
// What /metrics exports of a core's TLS listener (docs/tls.md), by core.
#include "runtime/metric_source.h"
#include "tls/tls_counters.h"

namespace tls {

extern const runtime::MetricTable<TlsCounters> kTlsMetricTable;

}  // namespace tls
