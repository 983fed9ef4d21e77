#include "tls/tls_metrics.h"

namespace tls {

namespace {

using C = TlsCounters;

constexpr runtime::MetricRow<C> kHandshakeRows[] = {
    {R"(outcome="completed",protocol="TLSv1.3")", &C::handshakes_tls13},
    {R"(outcome="completed",protocol="TLSv1.2")", &C::handshakes_tls12},
    {R"(outcome="failed",protocol="")", &C::handshakes_failed},
    {R"(outcome="timed_out",protocol="")", &C::handshakes_timed_out},
    {R"(outcome="cut",protocol="")", &C::handshakes_cut},
    {R"(outcome="shed",protocol="")", &C::handshakes_shed},
};
constexpr runtime::MetricRow<C> kRefusedRows[] = {
    {R"(reason="plain_http")", &C::plain_http},
    {R"(reason="not_tls")", &C::not_tls},
    {R"(reason="bad_record")", &C::record_errors},
};

constexpr runtime::Metric<C> kMetrics[] = {
    {.name = "decisiond_tls_handshakes_total",
     .type = runtime::MetricType::kCounter,
     .help = "TLS handshakes on the TLS listener, by outcome (completed, failed: refused by the protocol rules "
             "or malformed, timed_out, cut: the client closed first, shed: a ClientHello that waited past the overload "
             "bound, closed unanswered) and protocol",
     .rows = kHandshakeRows},
    {.name = "decisiond_tls_connections_refused_total",
     .type = runtime::MetricType::kCounter,
     .help = "connections to the TLS listener closed for what they sent: plain HTTP (answered 400), bytes that "
             "are not TLS, a bad record after the handshake",
     .rows = kRefusedRows},
    runtime::counter("decisiond_tls_handshake_seconds_total",
                     "Time spent in OpenSSL's handshake steps on the TLS listener, by core (the budget handshake "
                     "shedding keeps during a flood: a quarter of each 100 ms)",
                     &C::handshake_ns, 1e-9),
};

}  // namespace

const runtime::MetricTable<TlsCounters> kTlsMetricTable = kMetrics;

}  // namespace tls
