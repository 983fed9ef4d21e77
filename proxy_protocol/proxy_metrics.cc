#include "proxy_protocol/proxy_metrics.h"

namespace proxy_protocol {

namespace {

using C = ProxyCounters;

constexpr runtime::MetricRow<C> kHeaderRows[] = {
    {R"(command="proxy")", &C::headers_proxy},
    {R"(command="local")", &C::headers_local},
};
constexpr runtime::MetricRow<C> kRefusedRows[] = {
    {R"(reason="untrusted")", &C::refused_untrusted},
    {R"(reason="version")", &C::refused_version},
    {R"(reason="command")", &C::refused_command},
    {R"(reason="family")", &C::refused_family},
    {R"(reason="address_length")", &C::refused_address_length},
    {R"(reason="oversized")", &C::refused_oversized},
    {R"(reason="tlv")", &C::refused_tlv},
    {R"(reason="cut")", &C::cut},
};

constexpr runtime::Metric<C> kMetrics[] = {
    {.name = "decisiond_proxy_protocol_headers_total",
     .type = runtime::MetricType::kCounter,
     .help = "PROXY protocol v2 headers read from trusted balancers, by command (proxy: the client is the "
             "header's source address; local: the balancer's own connection, its address stands)",
     .rows = kHeaderRows},
    {.name = "decisiond_proxy_protocol_refused_total",
     .type = runtime::MetricType::kCounter,
     .help = "connections closed at their PROXY protocol header, by reason: untrusted (a header from a peer not "
             "in --trusted-proxies), version (v1 or unknown), command, family, address_length, oversized, tlv "
             "(malformed headers), cut (the peer closed in the middle of one)",
     .rows = kRefusedRows},
};

}  // namespace

const runtime::MetricTable<ProxyCounters> kProxyMetricTable = kMetrics;

}  // namespace proxy_protocol
