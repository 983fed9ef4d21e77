#include "tests/integration/metrics_scrape.h"

#include <thread>

#include "tests/integration/curl_session.h"

namespace integration {

std::string scrape_metrics(const ServerProcess& server) {
  CurlSession curl;
  const CurlReply reply = curl.get(server.admin_url("/metrics"));
  return reply.ok && reply.status == 200 ? reply.body : std::string();
}

std::optional<std::string> wait_for_page(const ServerProcess& server,
                                         const std::function<bool(const std::string& page)>& done,
                                         std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  CurlSession curl;
  for (;;) {
    const CurlReply reply = curl.get(server.admin_url("/metrics"));
    if (reply.ok && reply.status == 200 && done(reply.body)) return reply.body;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    // Polling interval only; the deadline is the bound.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::optional<double> wait_for_metric(const ServerProcess& server, std::string_view metric, const Labels& labels,
                                      double expected, std::chrono::milliseconds timeout) {
  std::optional<double> value;
  wait_for_page(
      server,
      [&](const std::string& page) {
        value = sum_samples(page, metric, labels);
        return value == expected;
      },
      timeout);
  return value;
}

}  // namespace integration
