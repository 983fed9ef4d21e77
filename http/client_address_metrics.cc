#include "http/client_address_metrics.h"

namespace http {

namespace {

using C = ClientAddressCounters;

constexpr runtime::MetricRow<C> kRows[] = {
    {R"(header="forwarded",outcome="address")", &C::forwarded_address},
    {R"(header="forwarded",outcome="unusable")", &C::forwarded_unusable},
    {R"(header="forwarded",outcome="too_many_hops")", &C::forwarded_too_many_hops},
    {R"(header="x_forwarded_for",outcome="address")", &C::x_forwarded_for_address},
    {R"(header="x_forwarded_for",outcome="unusable")", &C::x_forwarded_for_unusable},
    {R"(header="x_forwarded_for",outcome="too_many_hops")", &C::x_forwarded_for_too_many_hops},
};

constexpr runtime::Metric<C> kMetrics[] = {
    {.name = "decisiond_forwarded_client_total",
     .type = runtime::MetricType::kCounter,
     .help = "requests from a peer in --trusted-proxies whose Forwarded or X-Forwarded-For header was read, by "
             "header and outcome: address (the nearest untrusted hop named the client), unusable (that hop is "
             "unknown, obfuscated or not an address: no client address), too_many_hops (the 16 nearest hops "
             "were all trusted)",
     .rows = kRows},
};

}  // namespace

const runtime::MetricTable<ClientAddressCounters> kClientAddressMetricTable = kMetrics;

}  // namespace http
