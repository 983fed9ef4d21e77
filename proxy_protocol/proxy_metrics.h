#pragma once
// What /metrics exports of a core's PROXY protocol layer (docs/client_address.md), by core.
#include "proxy_protocol/proxy_counters.h"
#include "runtime/metric_source.h"

namespace proxy_protocol {

extern const runtime::MetricTable<ProxyCounters> kProxyMetricTable;

}  // namespace proxy_protocol
