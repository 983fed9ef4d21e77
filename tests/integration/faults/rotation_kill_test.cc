// kill -9 while the event log rotates (docs/events.md): with
// --events-file-bytes at its floor (64 KiB) a file rotates every few hundred lines while
// decisions and impressions flow, and the test kills the server right as core 0 creates a
// new file (inotify), at several moments after it. Each restart must find every impression
// acknowledged before the last flush in the log exactly once, skip what a kill tore, and
// apply caps that agree with the log.
#include <signal.h>
#include <sys/inotify.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <regex>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/faults/fault_support.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"

namespace integration::faults {
namespace {

// Where after a rotation the kill lands: after how many file creations of core 0 (the
// first: 0), then how long after it.
struct KillMoment {
  int creations_skipped;
  std::chrono::microseconds delay;
};

size_t torn_lines_skipped(const std::string& stderr_text) {
  static const std::regex kLine(R"((\d+) torn line\(s\) skipped)");
  std::smatch match;
  return std::regex_search(stderr_text, match, kLine) ? std::stoul(match[1].str()) : 0;
}

class RotationKill : public ::testing::Test {
 protected:
  std::unique_ptr<ServerProcess> start() {
    auto server = std::make_unique<ServerProcess>(standard_flags(
        {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=100ms", "--events-file-bytes=64KiB"}));
    return server;
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDirWithKeys state_;
  ImpressionSender sender_{state_};
};

// The promise: on kill -9 during a rotation, what is lost is at most the impressions
// acknowledged since the last flush; no impression is counted twice, a torn line is never
// read as an event, and the caps after the restart are exactly those the log holds.
TEST_F(RotationKill, Kill9AtRotationsLosesNothingAcknowledgedBeforeTheLastFlush) {
  const KillMoment moments[] = {{0, std::chrono::microseconds(0)},
                                {1, std::chrono::microseconds(0)},
                                {0, std::chrono::microseconds(300)},
                                {2, std::chrono::microseconds(2000)}};
  std::vector<Acknowledged> flushed;  // acknowledged, then seen handed to the kernel
  size_t torn = 0;
  int cycle = 0;
  for (const KillMoment& moment : moments) {
    std::unique_ptr<ServerProcess> server = start();
    ASSERT_TRUE(server->serving()) << "restart " << cycle << ": " << server->start_error() << server->stderr_text();
    torn += torn_lines_skipped(server->stderr_text());
    if (cycle > 0) {
      const LogCensus census = census_of(state_.path());
      ASSERT_TRUE(EveryOneLoggedOnce(census, flushed)) << "after kill " << cycle;
      ASSERT_TRUE(NothingCountedTwice(census)) << "after kill " << cycle;
      ASSERT_TRUE(CapsAgreeWithTheLog(*server, census, sender_.users())) << "after kill " << cycle;
    }
    // Acknowledged and flushed: these must survive whatever comes next.
    const size_t before = sender_.acknowledged().size();
    ASSERT_EQ(sender_.send(*server, "rotation-" + std::to_string(cycle) + "-flushed-", 8), 8u);
    ASSERT_TRUE(wait_until_logged(*server));
    const std::vector<Acknowledged> now = sender_.acknowledged();
    flushed.insert(flushed.end(), now.begin() + static_cast<ptrdiff_t>(before), now.end());

    // Then impressions keep flowing, and the kill lands at a rotation of core 0.
    DirectoryWatch rotations(state_.path() + "/events/core-0", IN_CREATE);
    ASSERT_TRUE(rotations.ok());
    std::atomic<bool> stop{false};
    std::thread flow([&] { sender_.send(*server, "rotation-" + std::to_string(cycle) + "-flowing-", 100000, &stop); });
    std::string created;
    for (int k = 0; k <= moment.creations_skipped; ++k) {
      created = rotations.wait_for(".jsonl", IN_CREATE, std::chrono::seconds(30));
      if (created.empty()) break;
    }
    if (moment.delay.count() > 0) std::this_thread::sleep_for(moment.delay);  // the kill's chosen moment
    server->send_signal(SIGKILL);
    stop = true;
    flow.join();
    ASSERT_TRUE(server->wait_for_exit());
    ASSERT_FALSE(created.empty()) << "cycle " << cycle << ": no rotation within 30 s";
    ++cycle;
  }
  std::unique_ptr<ServerProcess> server = start();
  ASSERT_TRUE(server->serving()) << server->start_error() << server->stderr_text();
  torn += torn_lines_skipped(server->stderr_text());
  const LogCensus census = census_of(state_.path());
  EXPECT_TRUE(EveryOneLoggedOnce(census, flushed));
  EXPECT_TRUE(NothingCountedTwice(census));
  EXPECT_TRUE(CapsAgreeWithTheLog(*server, census, sender_.users()));
  EXPECT_EQ(census.unreadable, 0u) << "a torn line is only ever the last of a file, without its newline";
  // What flowed after the flush point may be lost: say how much was, for the record.
  const std::vector<Acknowledged> all = sender_.acknowledged();
  size_t lost = 0;
  for (const Acknowledged& a : all) lost += census.counted.count(a.key) == 0 ? 1 : 0;
  std::printf("%zu impressions acknowledged, %zu of them flushed before a kill; %zu lost; %zu torn lines skipped "
              "at restarts\n",
              all.size(), flushed.size(), lost, torn);
}

}  // namespace
}  // namespace integration::faults
