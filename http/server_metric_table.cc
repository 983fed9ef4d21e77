#include "http/server_metric_table.h"

#include "absl/strings/str_cat.h"

namespace http {

namespace {
using runtime::MetricScope;
using runtime::MetricSeriesList;
using runtime::MetricType;

// A series per route and tracked status; its key is route * kTrackedStatuses.size() + status index.
void routes_by_status(const ServerMetrics& m, MetricSeriesList& out) {
  for (uint32_t route = 0; route < m.route_names().size(); ++route) {
    for (size_t s = 0; s < kTrackedStatuses.size(); ++s) {
      const std::string status = kTrackedStatuses[s] == 0 ? std::string("other") : absl::StrCat(kTrackedStatuses[s]);
      out.add(static_cast<uint32_t>(route * kTrackedStatuses.size() + s),
              {{"route", m.route_names()[route]}, {"status", status}});
    }
  }
}

uint64_t requests(const ServerMetrics& m, uint32_t key) {
  return m.requests(key / kTrackedStatuses.size(), key % kTrackedStatuses.size()).get();
}

void routes(const ServerMetrics& m, MetricSeriesList& out) {
  for (uint32_t route = 0; route < m.route_names().size(); ++route) out.add(route, {{"route", m.route_names()[route]}});
}

uint64_t latency_bucket(const ServerMetrics& m, uint32_t route, size_t b) { return m.latency_bucket(route, b).get(); }
uint64_t latency_sum_ns(const ServerMetrics& m, uint32_t route) { return m.latency_sum_ns(route).get(); }

constexpr runtime::MetricHistogram<ServerMetrics> kLatency{kLatencyBucketsUs, 1e-6, &latency_bucket, &latency_sum_ns,
                                                          1e-9};

constexpr runtime::MetricRow<ServerMetrics> kLimits[] = {
    {R"(limit="connections")", &ServerMetrics::connections_refused},
    {R"(limit="header_bytes")", &ServerMetrics::headers_too_large},
    {R"(limit="body_bytes")", &ServerMetrics::bodies_too_large},
    {R"(limit="decoded_body_bytes")", &ServerMetrics::decoded_bodies_too_large},  // 413 10003 (http/content_coding/)
    {R"(limit="malformed")", &ServerMetrics::malformed_requests},
    {R"(limit="request_timeout")", &ServerMetrics::request_timeouts},
    {R"(limit="idle_timeout")", &ServerMetrics::idle_timeouts},
    {R"(limit="pipeline_backlog")", &ServerMetrics::backlog_overflows},
    {R"(limit="overload_shed")", &ServerMetrics::shed_requests},  // 503 10098 at once: the core ran behind (--shed-lag)
};

constexpr runtime::Metric<ServerMetrics> kFamilies[] = {
    // Only series with a request in them: routes x statuses x cores would be mostly zeros.
    {.name = "decisiond_http_requests_total", .type = MetricType::kCounter,
     .help = "Requests answered, by listener, route, status and core.", .series = &routes_by_status,
     .read = &requests, .skip_zero = true},
    {.name = "decisiond_http_request_duration_seconds", .type = MetricType::kHistogram,
     .help = "Time from a request's last byte to its reply being queued, by listener and route (all cores).",
     .scope = MetricScope::kAllCores, .series = &routes, .histogram = &kLatency, .skip_zero = true},
    runtime::gauge("decisiond_http_connections_open", "Connections held now, by listener and core.",
                   &ServerMetrics::connections_open),
    runtime::counter("decisiond_http_connections_accepted_total", "Connections accepted, by listener and core.",
                     &ServerMetrics::connections_accepted),
    runtime::counter("decisiond_http_deferred_replies_total",
                     "Replies given after another core answered (a decision for a user another core owns), by "
                     "listener and core.",
                     &ServerMetrics::deferred_replies),
    {.name = "decisiond_http_limit_hits_total", .type = MetricType::kCounter,
     .help = "Times a bound of the HTTP layer was hit, by listener, limit and core.", .rows = kLimits},
};
}  // namespace

constinit const runtime::MetricTable<ServerMetrics> kServerMetricTable = kFamilies;

}  // namespace http
