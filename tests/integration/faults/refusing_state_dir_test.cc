// A state directory that refuses writes (docs/events.md, docs/operations.md
// "State directory"): read-only (a read-only bind mount over it: chmod does not stop root),
// before the start or while serving; and a full disk under the snapshots (a small tmpfs, as
// disk_full_test.cc does for the event log). Serving continues, /readyz is 503 while the disk
// refuses, the metrics and stderr say what is held and what failed, the last whole snapshot
// is kept, and what was held reaches the log once the disk allows it. Needs root for the
// mounts; skipped otherwise, saying why.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "gtest/gtest.h"
#include "tests/integration/faults/fault_support.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/readyz.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tmpfs_mount.h"
#include "tests/integration/tracking_flow.h"

namespace integration::faults {
namespace {

double metric(const ServerProcess& server, const std::string& name) {
  return sum_samples(scrape_metrics(server), name, {}).value_or(-1);
}

// Until the metric (summed over cores) reaches at least `value`; its last value.
double wait_for_at_least(const ServerProcess& server, const std::string& name, double value) {
  double seen = -1;
  wait_for_page(server, [&](const std::string& page) {
    seen = sum_samples(page, name, {}).value_or(-1);
    return seen >= value;
  });
  return seen;
}

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

class RefusingStateDir : public ::testing::Test {
 protected:
  std::unique_ptr<ServerProcess> start(std::vector<std::string> extra = {}) {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=100ms",
                                      "--snapshot-interval=200ms"};
    flags.insert(flags.end(), extra.begin(), extra.end());
    return std::make_unique<ServerProcess>(standard_flags(flags));
  }
  void stop(ServerProcess& server) {
    server.send_signal(SIGTERM);
    const std::optional<ExitStatus> exit = server.wait_for_exit(std::chrono::seconds(20));
    ASSERT_TRUE(exit);
    EXPECT_EQ(exit->code, 0) << exit->describe();
  }
  std::string snap(int core) const { return state_.path() + "/snapshots/core-" + std::to_string(core) + ".snap"; }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDirWithKeys state_;
  ImpressionSender sender_{state_};
};

// The promise: a state directory that turns read-only while serving costs no request
// (decisions 200, impressions 204); /readyz turns 503 once the log must open a file
// (rotation) and cannot; decisiond_events_write_errors_total, _log_healthy 0 and
// _pending_bytes (lines held in memory, at risk) say so, as do
// decisiond_snapshots_failed_total and a stderr line for the snapshots; nothing held is
// lost once the directory is writable again.
TEST_F(RefusingStateDir, ReadOnlyWhileServingKeepsServingTurnsUnreadyAndCountsWhatFails) {
  std::unique_ptr<ServerProcess> server = start({"--events-file-bytes=64KiB"});
  ASSERT_TRUE(server->serving()) << server->start_error();
  ASSERT_TRUE(wait_for_readyz(*server, 200));
  ASSERT_GE(wait_for_at_least(*server, "decisiond_snapshots_written_total", 2), 2);
  ReadOnlyBind read_only(state_.path());
  if (!read_only.mounted()) GTEST_SKIP() << read_only.why_not();

  // Enough for each core to need a new file (64 KiB of lines), which it cannot create.
  size_t users = 0;
  while (metric(*server, "decisiond_events_write_errors_total") < 1 && users < 2000) {
    ASSERT_EQ(sender_.send(*server, "read-only-" + std::to_string(users) + "-", 10), 10u)
        << "every decision 200 and impression 204 on a read-only state directory";
    users += 10;
  }
  EXPECT_TRUE(wait_for_readyz(*server, 503)) << "/readyz turns unready while the log cannot write";
  const std::string page = scrape_metrics(*server);
  EXPECT_GE(sum_samples(page, "decisiond_events_write_errors_total", {}).value_or(0), 1) << page;
  EXPECT_LT(sum_samples(page, "decisiond_events_log_healthy", {}).value_or(2), 2) << page;
  EXPECT_GT(sum_samples(page, "decisiond_events_pending_bytes", {}).value_or(0), 0) << "lines held in memory";
  EXPECT_EQ(sum_samples(page, "decisiond_events_dropped_total", {}).value_or(-1), 0)
      << "held, not lost: 64 MiB a core are held before a line is dropped";
  EXPECT_GE(wait_for_at_least(*server, "decisiond_snapshots_failed_total", 2), 2);
  EXPECT_NE(server->stderr_text().find("snapshot not written (create"), std::string::npos) << server->stderr_text();

  read_only.release();
  EXPECT_TRUE(wait_for_readyz(*server, 200)) << "ready again once the log writes";
  stop(*server);
  const LogCensus census = census_of(state_.path());
  EXPECT_TRUE(EveryOneLoggedOnce(census, sender_.acknowledged())) << "what was held reached the log";
  EXPECT_TRUE(NothingCountedTwice(census));
}

// The promise: a first start on a read-only state directory, which cannot create its keys,
// exits 1 with a line naming the file and the reason.
TEST_F(RefusingStateDir, ReadOnlyWithoutKeysExitsOneSayingWhy) {
  StateDir empty;
  ReadOnlyBind read_only(empty.path());
  if (!read_only.mounted()) GTEST_SKIP() << read_only.why_not();
  const FinishedRun run = run_to_exit(standard_flags({"--catalog=" + catalog_.path(), empty.flag()}));
  ASSERT_TRUE(run.exit) << "still running without keys";
  EXPECT_EQ(run.exit->code, 1) << run.exit->describe() << "\n" << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("tracking keys"), std::string::npos) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("Read-only file system"), std::string::npos) << run.stderr_text;
}

// The promise: a start on a read-only state directory that holds its keys (and the log and
// snapshots of an earlier run) rebuilds the caps and serves, unready, saying on stderr that
// the log cannot write; impressions are acknowledged and held, and reach the log once the
// directory is writable.
TEST_F(RefusingStateDir, ReadOnlyWithKeysServesUnreadyAndWritesOnceAllowed) {
  {
    std::unique_ptr<ServerProcess> first = start();
    ASSERT_TRUE(first->serving()) << first->start_error();
    ASSERT_EQ(sender_.send(*first, "before-", 5), 5u);
    stop(*first);
  }
  ReadOnlyBind read_only(state_.path());
  if (!read_only.mounted()) GTEST_SKIP() << read_only.why_not();
  std::unique_ptr<ServerProcess> server = start();
  ASSERT_TRUE(server->serving()) << "keys present: it serves on a read-only state directory\n"
                                 << server->start_error() << server->stderr_text();
  EXPECT_NE(server->stderr_text().find("Read-only file system: serving, unready until the event log can write"),
            std::string::npos)
      << server->stderr_text();
  EXPECT_TRUE(wait_for_readyz(*server, 503));
  {
    // Caps of the earlier run apply: the log was read.
    const LogCensus census = census_of(state_.path());
    EXPECT_TRUE(CapsAgreeWithTheLog(*server, census, sender_.users()));
  }
  ASSERT_EQ(sender_.send(*server, "read-only-start-", 5), 5u);
  const std::string page = scrape_metrics(*server);
  EXPECT_GE(sum_samples(page, "decisiond_events_write_errors_total", {}).value_or(0), 2) << "one per core" << page;
  EXPECT_EQ(sum_samples(page, "decisiond_events_log_healthy", {}).value_or(-1), 0) << page;
  EXPECT_GT(sum_samples(page, "decisiond_events_pending_bytes", {}).value_or(0), 0) << page;

  read_only.release();
  EXPECT_TRUE(wait_for_readyz(*server, 200));
  stop(*server);
  const LogCensus census = census_of(state_.path());
  EXPECT_TRUE(EveryOneLoggedOnce(census, sender_.acknowledged()));
  EXPECT_TRUE(NothingCountedTwice(census));
}

// The promise: a snapshot that finds the disk full is counted
// (decisiond_snapshots_failed_total) and said on stderr, the last whole snapshot stays
// byte for byte and is what a restart loads; serving and the log are not affected; the
// next interval after space returns writes a new one.
TEST_F(RefusingStateDir, FullDiskUnderSnapshotsKeepsTheLastWholeOneAndCountsTheFailures) {
  TmpfsMount disk(state_.path() + "/snapshots", 1 << 20);
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a small tmpfs over the snapshots folder: " << disk.why_not();
  std::unique_ptr<ServerProcess> server = start();
  ASSERT_TRUE(server->serving()) << server->start_error();
  ASSERT_EQ(sender_.send(*server, "snapshot-full-", 5), 5u);
  ASSERT_GE(wait_for_at_least(*server, "decisiond_snapshots_written_total", 4), 4);
  ASSERT_GT(disk.fill(), 0u);
  const double failed = wait_for_at_least(*server, "decisiond_snapshots_failed_total", 2);
  ASSERT_GE(failed, 2) << server->stderr_text();
  // From here on every attempt fails: the files in place are the last whole ones.
  const std::string kept0 = contents(snap(0)), kept1 = contents(snap(1));
  ASSERT_GE(wait_for_at_least(*server, "decisiond_snapshots_failed_total", failed + 4), failed + 4);
  EXPECT_EQ(contents(snap(0)), kept0);
  EXPECT_EQ(contents(snap(1)), kept1);
  EXPECT_NE(server->stderr_text().find("snapshot not written (write"), std::string::npos) << server->stderr_text();
  ASSERT_EQ(sender_.send(*server, "snapshot-full-serving-", 5), 5u) << "serving goes on";
  {
    CurlSession session;
    EXPECT_EQ(session.get(server->admin_url("/readyz")).status, 200) << "the log, on another disk, is fine";
  }

  disk.free_space();
  const double written = metric(*server, "decisiond_snapshots_written_total");
  EXPECT_GE(wait_for_at_least(*server, "decisiond_snapshots_written_total", written + 2), written + 2);
  EXPECT_TRUE(wait_until_logged(*server));
  server->send_signal(SIGKILL);
  ASSERT_TRUE(server->wait_for_exit());
  server = start();
  ASSERT_TRUE(server->serving()) << server->start_error();
  EXPECT_EQ(snapshots_loaded(server->stderr_text()), 2) << server->stderr_text();
  const LogCensus census = census_of(state_.path());
  EXPECT_TRUE(EveryOneLoggedOnce(census, sender_.acknowledged()));
  EXPECT_TRUE(CapsAgreeWithTheLog(*server, census, sender_.users()));
}

}  // namespace
}  // namespace integration::faults
