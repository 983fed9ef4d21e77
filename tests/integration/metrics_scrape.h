#pragma once
// Reading a running server's /metrics, once or until a value settles. Connection
// counts change when the server gets round to an accept or a close, after the client's
// own call returned, so tests wait for the value rather than sleep.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "tests/integration/metrics_text.h"
#include "tests/integration/server_process.h"

namespace integration {

// The page, or empty when the scrape failed.
std::string scrape_metrics(const ServerProcess& server);

// Scrapes until done(page) holds; that page, or nullopt once the deadline has passed.
// A failed scrape is not shown to done.
std::optional<std::string> wait_for_page(const ServerProcess& server,
                                         const std::function<bool(const std::string& page)>& done,
                                         std::chrono::milliseconds timeout = kStateTimeout);

// The last value read: equal to `expected` unless the deadline passed first.
std::optional<double> wait_for_metric(const ServerProcess& server, std::string_view metric, const Labels& labels,
                                      double expected, std::chrono::milliseconds timeout = std::chrono::seconds(5));

}  // namespace integration
