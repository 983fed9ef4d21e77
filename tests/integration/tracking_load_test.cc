// Decisions and their impression calls at full rate for half a minute, from several
// clients: afterwards the event log holds exactly what was acknowledged (docs/events.md:
// the log is the source of truth for impressions). Loopback only; bounded in time. Half a
// minute, not the minute it once ran: the exact count holds or fails the same way over
// hundreds of thousands of calls, and make test's time is bounded (docs/testing.md).
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

constexpr auto kDuration = std::chrono::seconds(30);
constexpr int kClients = 4;
constexpr int kUsers = 100'000;

TEST(TrackingLoad, LogCountsEqualAcknowledgedCallsForHalfAMinute) {
  const TempFile catalog("catalog.json", capped_catalog_json());
  StateDir state;
  // Shedding is not what this test is about (the overload tests are): beside other tests
  // on a 2-CPU machine a core's loop passes --shed-lag's 20 ms now and then, and a shed
  // decision would count here as a failure.
  ServerProcess server(standard_flags({"--catalog=" + catalog.path(), state.flag(), "--shed-lag=0"}));
  ASSERT_TRUE(server.serving()) << server.start_error();

  std::mutex merge;
  uint64_t creatives = 0, impression_calls = 0;
  std::set<std::string> tokens;
  std::atomic<uint64_t> failures{0};
  std::string first_failure;  // under merge
  const auto until = std::chrono::steady_clock::now() + kDuration;
  std::vector<std::thread> clients;
  for (int t = 0; t < kClients; ++t) {
    clients.emplace_back([&, t] {
      std::mt19937_64 random(static_cast<uint64_t>(t) + 1);
      CurlSession decisions, tracking;  // kept alive: full rate
      uint64_t my_creatives = 0, my_calls = 0;
      std::set<std::string> my_tokens;
      std::string last;
      const std::string body_head = R"({"placements":[{"key":"home_top","count":3}],"user":{"id":"load-)";
      while (std::chrono::steady_clock::now() < until) {
        const CurlReply reply = decisions.post(server.public_url("/v1/decision"),
                                               body_head + std::to_string(random() % kUsers) + R"("}})");
        if (reply.status != 200) {
          failures.fetch_add(1);
          std::lock_guard<std::mutex> lock(merge);
          if (first_failure.empty()) first_failure = "decision: " + std::to_string(reply.status) + " " + reply.body;
          continue;
        }
        for (const CreativeTokens& c : tokens_of(reply.body)) {
          ++my_creatives;
          const std::string& token = (!last.empty() && random() % 10 == 0) ? last : c.impression;  // some repeats
          const CurlReply call = tracking.get(server.public_url("/v1/tracking?t=" + token));
          if (call.status != 204) {
            failures.fetch_add(1);
            std::lock_guard<std::mutex> lock(merge);
            if (first_failure.empty()) first_failure = "impression: " + std::to_string(call.status) + " " + call.body;
            continue;
          }
          ++my_calls;
          my_tokens.insert(token);
          last = c.impression;
        }
      }
      std::lock_guard<std::mutex> lock(merge);
      creatives += my_creatives;
      impression_calls += my_calls;
      tokens.insert(my_tokens.begin(), my_tokens.end());
    });
  }
  for (std::thread& c : clients) c.join();
  server.send_signal(SIGTERM);
  ASSERT_TRUE(server.wait_for_exit(std::chrono::seconds(20)));

  uint64_t decision_lines = 0, impression_lines = 0, first_lines = 0;
  for (const LogLine& l : read_event_log(state.path())) {
    if (l.kind == "decision") ++decision_lines;
    if (l.kind == "impression") {
      ++impression_lines;
      if (!l.duplicate) ++first_lines;
    }
  }
  EXPECT_EQ(failures.load(), 0u) << first_failure;
  EXPECT_GT(impression_calls, 1000u);
  EXPECT_EQ(decision_lines, creatives);
  EXPECT_EQ(impression_lines, impression_calls);
  EXPECT_EQ(first_lines, tokens.size());
  std::printf("load: %llu creatives decided, %llu impression calls (%zu distinct tokens) in 60 s\n",
              static_cast<unsigned long long>(creatives), static_cast<unsigned long long>(impression_calls), tokens.size());
}

}  // namespace
}  // namespace integration
