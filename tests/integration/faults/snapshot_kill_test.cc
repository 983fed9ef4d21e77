// kill -9 while a snapshot is written, and snapshots damaged on disk (docs/events.md
// "Snapshots and start-up"). A snapshot goes to core-<N>.snap.tmp, is fdatasync'd and renamed
// over core-<N>.snap; every file ends with an XXH3 checksum. The state is made large (an
// event log of 150,000 users written by the test before the first start, as a server with
// that history would have left it) so that a snapshot takes several 1 MiB writes, and the
// test kills the server as the snapshot's file is created or written (inotify).
#include <signal.h>
#include <sys/inotify.h>

#include <chrono>
#include <cstdio>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <memory>

#include "gtest/gtest.h"
#include "tests/integration/faults/fault_support.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_flow.h"

namespace integration::faults {
namespace {

bool exists(const std::string& path) {
  std::error_code ignored;
  return std::filesystem::exists(path, ignored);
}

// A snapshot of 150,000 users is several 1 MiB writes: generous, for a loaded machine and
// sanitizer builds, and reached only when something is wrong.
constexpr std::chrono::seconds kSnapshotTimeout{30};

class SnapshotFaults : public ::testing::Test {
 protected:
  std::unique_ptr<ServerProcess> start(const std::string& interval) {
    return std::make_unique<ServerProcess>(standard_flags(
        {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=100ms", "--snapshot-interval=" + interval}));
  }
  std::string snap(int core) const { return state_.path() + "/snapshots/core-" + std::to_string(core) + ".snap"; }
  void send_and_flush(ServerProcess& server, const std::string& prefix) {
    const size_t before = sender_.acknowledged().size();
    ASSERT_EQ(sender_.send(server, prefix, 5), 5u);
    ASSERT_TRUE(wait_until_logged(server));
    const std::vector<Acknowledged> now = sender_.acknowledged();
    flushed_.insert(flushed_.end(), now.begin() + static_cast<ptrdiff_t>(before), now.end());
  }
  // The users whose caps a restart is checked on: those the test sent impressions for, and
  // a sample of the written history (its capped users and as many others).
  std::set<std::string> users_to_check() const {
    std::set<std::string> users = sender_.users();
    users.insert(history_capped_.begin(), history_capped_.end());
    for (size_t n = 1; n < 150000; n += 1999) users.insert("history-" + std::to_string(n));
    return users;
  }
  void expect_state_agrees_with_the_log(const ServerProcess& server, const std::string& when) {
    const LogCensus census = census_of(state_.path());
    EXPECT_TRUE(EveryOneLoggedOnce(census, flushed_)) << when;
    EXPECT_TRUE(NothingCountedTwice(census)) << when;
    EXPECT_TRUE(CapsAgreeWithTheLog(server, census, users_to_check())) << when;
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDirWithKeys state_;
  ImpressionSender sender_{state_};
  std::vector<Acknowledged> flushed_;
  std::set<std::string> history_capped_;
};

// The promise: on kill -9 while a snapshot is written, the previous snapshot stays whole
// and is the one loaded at restart; the half-written file is never read; caps and counted
// impressions after the restart are those of the log. A torn snapshot put where the whole
// one belongs is refused, and its core's log replayed from the start instead.
TEST_F(SnapshotFaults, Kill9WhileASnapshotIsWrittenKeepsThePreviousOne) {
  history_capped_ = write_impression_history(state_.path(), 2, "history-", 150000);
  ASSERT_EQ(history_capped_.size(), 150u);
  struct Moment {
    const char* name;
    uint32_t mask;
    int events;
  };
  const Moment moments[] = {{"as the file is created", IN_CREATE | IN_OPEN, 1},
                            {"after its first batch", IN_MODIFY, 1},
                            {"after its third batch", IN_MODIFY, 3}};
  int landed = 0;
  int cycle = 0;
  for (const Moment& moment : moments) {
    std::unique_ptr<ServerProcess> server = start("1s");
    ASSERT_TRUE(server->serving()) << server->start_error() << server->stderr_text();
    if (cycle > 0) {
      EXPECT_EQ(snapshots_loaded(server->stderr_text()), 2) << "the previous snapshots, whole: " << server->stderr_text();
      EXPECT_EQ(server->stderr_text().find("refused"), std::string::npos) << server->stderr_text();
      expect_state_agrees_with_the_log(*server, std::string("after a kill ") + moments[cycle - 1].name);
    }
    send_and_flush(*server, "snapshot-" + std::to_string(cycle) + "-");
    if (HasFatalFailure()) return;
    // A whole snapshot of both cores holding those impressions, then the kill in the next.
    ASSERT_TRUE(wait_for_snapshots_since(*server, snapshots_written(*server), kSnapshotTimeout)) << server->stderr_text();
    DirectoryWatch writes(state_.path() + "/snapshots", IN_CREATE | IN_OPEN | IN_MODIFY);
    ASSERT_TRUE(writes.ok());
    std::string seen;
    for (int k = 0; k < moment.events; ++k) {
      seen = writes.wait_for(".snap.tmp", moment.mask, std::chrono::seconds(30));
      if (seen.empty()) break;
    }
    server->send_signal(SIGKILL);
    ASSERT_TRUE(server->wait_for_exit());
    ASSERT_FALSE(seen.empty()) << "no snapshot written within 30 s";
    // The temporary file still there: the kill came before its rename.
    if (exists(snap(0) + ".tmp") || exists(snap(1) + ".tmp")) ++landed;
    ++cycle;
  }
  EXPECT_GT(landed, 0) << "no kill landed while a snapshot was being written";
  std::printf("%d of %zu kills landed before the snapshot's rename\n", landed, std::size(moments));

  // A torn snapshot where the whole one belongs (as a writer without rename would leave
  // it): refused, and core 0's state rebuilt from its log alone.
  const std::string torn = exists(snap(0) + ".tmp") ? snap(0) + ".tmp" : snap(1) + ".tmp";
  const uintmax_t torn_size = std::filesystem::file_size(torn);
  std::filesystem::copy_file(torn, snap(0), std::filesystem::copy_options::overwrite_existing);
  std::filesystem::resize_file(snap(0), torn_size / 2);  // cut short of its checksum, whatever was written
  std::unique_ptr<ServerProcess> server = start("60s");
  ASSERT_TRUE(server->serving()) << server->start_error() << server->stderr_text();
  EXPECT_NE(server->stderr_text().find("core-0.snap refused"), std::string::npos) << server->stderr_text();
  EXPECT_EQ(snapshots_loaded(server->stderr_text()), 1) << server->stderr_text();
  expect_state_agrees_with_the_log(*server, "after a torn snapshot");
}

// The promise: a snapshot altered on disk (one flipped byte, a file cut short, an empty
// file) is refused with a line on stderr naming it and why; the server starts, and its caps
// and counted impressions are rebuilt from the log.
TEST_F(SnapshotFaults, CorruptSnapshotIsRefusedWithAMessageAndTheLogRebuildsTheState) {
  {
    std::unique_ptr<ServerProcess> server = start("200ms");
    ASSERT_TRUE(server->serving()) << server->start_error();
    send_and_flush(*server, "corrupt-");
    if (HasFatalFailure()) return;
    ASSERT_TRUE(wait_for_snapshots_since(*server, snapshots_written(*server), kSnapshotTimeout));
    server->send_signal(SIGKILL);
    ASSERT_TRUE(server->wait_for_exit());
  }
  const uintmax_t size = std::filesystem::file_size(snap(0));
  {
    std::fstream file(snap(0), std::ios::in | std::ios::out | std::ios::binary);
    file.seekg(static_cast<std::streamoff>(size / 2));
    char byte = 0;
    file.read(&byte, 1);
    byte = static_cast<char>(byte ^ 0x10);
    file.seekp(static_cast<std::streamoff>(size / 2));
    file.write(&byte, 1);
  }
  std::filesystem::resize_file(snap(1), std::filesystem::file_size(snap(1)) - 3);
  std::unique_ptr<ServerProcess> server = start("60s");
  ASSERT_TRUE(server->serving()) << server->start_error() << server->stderr_text();
  const std::string& text = server->stderr_text();
  EXPECT_NE(text.find("core-0.snap refused (checksum mismatch)"), std::string::npos) << text;
  EXPECT_NE(text.find("core-1.snap refused (not a whole snapshot"), std::string::npos) << text;
  EXPECT_EQ(snapshots_loaded(text), 0) << text;
  expect_state_agrees_with_the_log(*server, "after corrupt snapshots");
  server->send_signal(SIGKILL);
  ASSERT_TRUE(server->wait_for_exit());

  // An empty snapshot file (a filesystem that lost its data after the rename).
  std::filesystem::resize_file(snap(0), 0);
  std::filesystem::remove(snap(1));
  server = start("60s");
  ASSERT_TRUE(server->serving()) << server->start_error() << server->stderr_text();
  EXPECT_NE(server->stderr_text().find("core-0.snap refused"), std::string::npos) << server->stderr_text();
  expect_state_agrees_with_the_log(*server, "after an empty snapshot");
}

}  // namespace
}  // namespace integration::faults
