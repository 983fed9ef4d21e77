#pragma once
// What /metrics exports of a server's forwarding headers (client_address.h), by core.
#include "http/client_address.h"
#include "runtime/metric_source.h"

namespace http {

extern const runtime::MetricTable<ClientAddressCounters> kClientAddressMetricTable;

}  // namespace http
