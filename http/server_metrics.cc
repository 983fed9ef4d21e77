#include "http/server_metrics.h"

namespace http {

ServerMetrics::ServerMetrics(std::vector<std::string> route_names)
    : route_names_(std::move(route_names)),
      requests_(std::make_unique<Counter[]>(route_names_.size() * kTrackedStatuses.size())),
      latency_(std::make_unique<Counter[]>(route_names_.size() * (kLatencyBucketsUs.size() + 1))),
      latency_sum_ns_(std::make_unique<Counter[]>(route_names_.size())) {}

size_t ServerMetrics::status_index(int status) {
  for (size_t i = 0; i + 1 < kTrackedStatuses.size(); ++i) {
    if (kTrackedStatuses[i] == status) return i;
  }
  return kTrackedStatuses.size() - 1;
}

void ServerMetrics::record(uint32_t route, int status, int64_t latency_ns) {
  if (route >= route_names_.size()) return;
  requests_[route * kTrackedStatuses.size() + status_index(status)].add();
  const int64_t latency_us = latency_ns / 1000;
  size_t bucket = 0;
  while (bucket < kLatencyBucketsUs.size() && latency_us > kLatencyBucketsUs[bucket]) ++bucket;
  latency_[route * (kLatencyBucketsUs.size() + 1) + bucket].add();
  latency_sum_ns_[route].add(static_cast<uint64_t>(latency_ns));
}

}  // namespace http
