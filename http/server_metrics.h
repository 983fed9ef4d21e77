#pragma once
// What one core's HTTP server counts: requests by route and status, latency histograms
// by route, connections, and every limit hit. Written by its core only; read by scrapes.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core_counter.h"

namespace http {

inline constexpr std::array<int, 17> kTrackedStatuses = {
    200, 204, 302, 400, 403, 404, 405, 408, 410, 413, 415, 422, 431, 500, 501, 503, 0 /* other */};
inline constexpr std::array<int64_t, 15> kLatencyBucketsUs = {
    25, 50, 100, 250, 500, 1'000, 2'500, 5'000, 10'000, 25'000, 50'000, 100'000, 250'000,
    500'000, 1'000'000};

class ServerMetrics {
 public:
  using Counter = runtime::CoreCounter;

  explicit ServerMetrics(std::vector<std::string> route_names);

  void record(uint32_t route, int status, int64_t latency_ns);

  const std::vector<std::string>& route_names() const { return route_names_; }
  static size_t status_index(int status);
  const Counter& requests(uint32_t route, size_t status_index) const {
    return requests_[route * kTrackedStatuses.size() + status_index];
  }
  // Cumulative counts are computed by the reader; these are per bucket (last is +Inf).
  const Counter& latency_bucket(uint32_t route, size_t bucket) const {
    return latency_[route * (kLatencyBucketsUs.size() + 1) + bucket];
  }
  const Counter& latency_sum_ns(uint32_t route) const { return latency_sum_ns_[route]; }

  Counter connections_open;
  Counter connections_accepted;
  Counter connections_refused;  // over the per-core connection limit
  Counter headers_too_large;
  Counter bodies_too_large;
  Counter decoded_bodies_too_large;  // a Content-Encoding body past the limit once decoded
  Counter malformed_requests;
  Counter request_timeouts;
  Counter idle_timeouts;
  Counter backlog_overflows;    // pipelined input beyond the backlog bound
  Counter deferred_replies;     // replies a handler gave later, after another core answered
  Counter shed_requests;        // answered 503 10098 at once: the core ran behind (overload)

 private:
  std::vector<std::string> route_names_;
  std::unique_ptr<Counter[]> requests_;
  std::unique_ptr<Counter[]> latency_;
  std::unique_ptr<Counter[]> latency_sum_ns_;
};

}  // namespace http
