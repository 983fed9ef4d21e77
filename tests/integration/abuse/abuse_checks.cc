#include "tests/integration/abuse/abuse_checks.h"

#include <chrono>
#include <cstdio>
#include <thread>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/updates/server_memory.h"
#include "tests/support/sanitizers.h"

namespace integration::abuse {

::testing::AssertionResult WellBehavedClientIsServed(const ServerProcess& server) {
  constexpr int kAttempts = 5;
  CurlReply reply;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    DecisionClient client(server);
    reply = client.decide(R"({"placements":[{"key":"home_top"}],"user":{"id":"well-behaved"}})",
                          {.accept_language = "en"});
    if (!reply.ok || reply.status != 503 || reply.header("Retry-After").empty()) break;
    std::printf("well-behaved client: shed (503 10098), retrying after Retry-After\n");
    // The wait the server asked for (Retry-After: 1): time itself, as a client honours it.
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (!reply.ok) return ::testing::AssertionFailure() << "well-behaved client: " << reply.error;
  if (reply.status != 200) {
    return ::testing::AssertionFailure() << "well-behaved client got " << reply.status << ": " << reply.body;
  }
  DecisionReply decision;
  if (::testing::AssertionResult read = ReadDecision(reply.body, decision); !read) return read;
  if (decision.ad_ids().empty()) return ::testing::AssertionFailure() << "no creative for home_top: " << reply.body;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult IsRefusalThenClose(RawConnection& connection, int status, int code) {
  const std::optional<HttpReply> reply = connection.read_reply();
  if (!reply) return ::testing::AssertionFailure() << "no reply: " << connection.last_error();
  if (reply->status != status) {
    return ::testing::AssertionFailure() << "status " << reply->status << ", expected " << status << ": " << reply->raw;
  }
  if (::testing::AssertionResult envelope = IsErrorEnvelope(reply->body, code); !envelope) return envelope;
  if (!reply->closes_connection()) return ::testing::AssertionFailure() << "no Connection: close: " << reply->raw;
  if (!connection.wait_for_close()) return ::testing::AssertionFailure() << "not closed: " << connection.last_error();
  if (!connection.unread().empty()) {
    return ::testing::AssertionFailure() << "bytes after the refusal: " << connection.unread();
  }
  return ::testing::AssertionSuccess();
}

ServerMemory::ServerMemory(const ServerProcess& server) {
  if (decision::testing::kAddressSanitizer) return;
  if (server.pid() > 0) {
    pid_ = server.pid();
    baseline_ = updates::resident_bytes(*pid_);
  }
  if (!baseline_) ADD_FAILURE() << "resident memory of the server (pid " << server.pid() << ") is not readable in /proc";
}

std::optional<uint64_t> ServerMemory::now() const {
  if (!pid_) return std::nullopt;
  return updates::resident_bytes(*pid_);
}

::testing::AssertionResult ServerMemory::StaysWithin(uint64_t extra_bytes, const std::string& what) const {
  const std::optional<uint64_t> resident = now();
  if (!measurable() || !resident) return ::testing::AssertionFailure() << "resident memory not readable";
  const uint64_t bound = *baseline_ + extra_bytes + kCores * kReceiveBuffersPerCoreBytes + kAllocatorSlackBytes;
  std::printf("resident memory (%s): baseline %.1f MiB, now %.1f MiB, bound %.1f MiB\n", what.c_str(),
              static_cast<double>(*baseline_) / kMiB, static_cast<double>(*resident) / kMiB,
              static_cast<double>(bound) / kMiB);
  if (*resident > bound) {
    return ::testing::AssertionFailure() << what << ": resident " << *resident / kMiB << " MiB over the bound "
                                         << bound / kMiB << " MiB (baseline " << *baseline_ / kMiB << " MiB + "
                                         << extra_bytes / kMiB << " MiB + slack)";
  }
  return ::testing::AssertionSuccess();
}

double public_404_count(const ServerProcess& server) {
  const std::string page = scrape_metrics(server);
  EXPECT_FALSE(page.empty()) << "metrics scrape failed";
  return sum_samples(page, "decisiond_http_requests_total", {{"listener", "public"}, {"status", "404"}}).value_or(0);
}

}  // namespace integration::abuse
