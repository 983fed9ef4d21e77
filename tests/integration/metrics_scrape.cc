#include "tests/integration/metrics_scrape.h"

#include <thread>

#include "tests/integration/curl_session.h"

namespace integration {

std::string scrape_metrics(const ServerProcess& server) {
  CurlSession curl;
  const CurlReply reply = curl.get(server.admin_url("/metrics"));
  return reply.ok && reply.status == 200 ? reply.body : std::string();
}

std::optional<double> wait_for_metric(const ServerProcess& server, std::string_view metric, const Labels& labels,
                                      double expected, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  CurlSession curl;
  std::optional<double> value;
  for (;;) {
    const CurlReply reply = curl.get(server.admin_url("/metrics"));
    if (reply.ok && reply.status == 200) value = sum_samples(reply.body, metric, labels);
    if (value == expected || std::chrono::steady_clock::now() >= deadline) return value;
    // Polling interval only; the deadline is the bound.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace integration
