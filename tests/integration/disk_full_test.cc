// A disk that refuses the event log's writes (docs/events.md): a 256 KiB tmpfs mounted
// over <state-dir>/events and filled by the test. Requests are still served (and caps still
// apply), /readyz turns 503 and the metrics say why, and once the test frees space the
// server is ready again within a few flush intervals and the held lines reach the log.
// Needs root for the mount; skipped otherwise, saying why.
#include <signal.h>

#include <memory>
#include <optional>
#include <set>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/readyz.h"
#include "tests/integration/tmpfs_mount.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

// Every sample of every metric family whose name contains `part`, summed; nullopt if none.
std::optional<double> sum_of_families(const std::string& page, const std::string& part) {
  std::set<std::string> names;
  for (size_t at = page.find(part); at != std::string::npos; at = page.find(part, at + 1)) {
    const size_t start = page.rfind('\n', at) == std::string::npos ? 0 : page.rfind('\n', at) + 1;
    if (page[start] == '#') continue;
    names.insert(page.substr(start, page.find_first_of("{ ", start) - start));
  }
  if (names.empty()) return std::nullopt;
  double sum = 0;
  for (const std::string& name : names) sum += sum_samples(page, name, {}).value_or(0);
  return sum;
}

class FullDisk : public ::testing::Test {
 protected:
  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDir state_;
};

TEST_F(FullDisk, RequestsAreServedCapsHoldAndReadinessFollowsTheDisk) {
  TmpfsMount disk(state_.path() + "/events", 256 * 1024);
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a small tmpfs over the events folder: " << disk.why_not();
  ServerProcess server(standard_flags({"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=100ms"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_TRUE(wait_for_readyz(server, 200)) << "ready before the disk fills";
  ASSERT_GT(disk.fill(), 0u);

  size_t creatives = 0, impressions = 0;
  // Enough lines to need more than the few bytes the last block may have had left.
  for (int i = 0; i < 60; ++i) {
    const CurlReply reply = decide(server, "full-" + std::to_string(i), 3);
    ASSERT_EQ(reply.status, 200) << "decisions are served while the disk refuses: " << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      ++creatives;
      ASSERT_EQ(call_tracking(server, c.impression).status, 204) << "impressions are acknowledged";
      ++impressions;
    }
  }
  // Caps live in memory: a user capped while the disk is full is capped.
  int shown = 0;
  for (int round = 0; round < 6; ++round) {
    const CurlReply reply = decide(server, "full-capped", 3);
    ASSERT_EQ(reply.status, 200);
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      ++creatives;
      if (c.ad_id != "ad_1") continue;
      ++shown;
      ASSERT_EQ(call_tracking(server, c.impression).status, 204);
      ++impressions;
    }
  }
  EXPECT_EQ(shown, 2) << "ad_1 allows two an hour, disk or no disk";

  EXPECT_TRUE(wait_for_readyz(server, 503)) << "/readyz turns unready while writes fail";
  const std::string page = scrape_metrics(server);
  EXPECT_GT(sum_samples(page, "decisiond_events_write_errors_total", {}).value_or(0), 0.0) << page;
  EXPECT_LT(sum_samples(page, "decisiond_events_log_healthy", {}).value_or(2), 2.0) << page;
  EXPECT_GT(sum_samples(page, "decisiond_events_pending_bytes", {}).value_or(0), 0.0) << "lines held in memory";
  const std::optional<double> dropped = sum_of_families(page, "dropped");
  ASSERT_TRUE(dropped) << "a metric counts dropped events: " << page;
  // docs/events.md: up to 64 MiB a core are held before anything is dropped; this test
  // holds a few hundred KiB at most, so nothing is lost.
  EXPECT_EQ(*dropped, 0.0) << page;

  disk.free_space();
  EXPECT_TRUE(wait_for_readyz(server, 200)) << "ready again once writes succeed";
  server.send_signal(SIGTERM);
  ASSERT_TRUE(server.wait_for_exit());
  const std::vector<EventLine> lines = read_event_lines(state_.path());
  EXPECT_EQ(count_kind(lines, "decision"), creatives) << "held lines were written once space returned";
  EXPECT_EQ(count_kind(lines, "impression"), impressions);

  // And the next process rebuilds the caps from them.
  ServerProcess again(standard_flags({"--catalog=" + catalog_.path(), state_.flag()}));
  ASSERT_TRUE(again.serving()) << again.start_error();
  for (const CreativeTokens& c : tokens_of(decide(again, "full-capped", 3).body)) EXPECT_NE(c.ad_id, "ad_1");
}

TEST_F(FullDisk, ServerStartsAndServesWithTheEventsDiskAlreadyFull) {
  // Keys first, on the real disk: one start and a clean stop.
  {
    ServerProcess first(standard_flags({"--catalog=" + catalog_.path(), state_.flag()}));
    ASSERT_TRUE(first.serving()) << first.start_error();
    first.send_signal(SIGTERM);
    ASSERT_TRUE(first.wait_for_exit());
  }
  TmpfsMount disk(state_.path() + "/events", 256 * 1024);
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a small tmpfs over the events folder: " << disk.why_not();
  ASSERT_GT(disk.fill(), 0u);
  ServerProcess server(standard_flags({"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=100ms"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  for (int i = 0; i < 40; ++i) {
    const CurlReply reply = decide(server, "start-full-" + std::to_string(i), 3);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) ASSERT_EQ(call_tracking(server, c.impression).status, 204);
  }
  EXPECT_TRUE(wait_for_readyz(server, 503));
  disk.free_space();
  EXPECT_TRUE(wait_for_readyz(server, 200));
}

}  // namespace
}  // namespace integration
