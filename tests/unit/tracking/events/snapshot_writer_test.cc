// The snapshot writer (tracking/state/snapshot_writer.h) on a real ring while impressions
// keep arriving: the snapshot is written in batches between which the core counts and logs
// more impressions, each shard records its own point in the log, and recovery from the
// snapshot plus the log equals the live state, counting nothing twice.
#include "tracking/state/snapshot_writer.h"

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "caps/user_key.h"
#include "gtest/gtest.h"
#include "runtime/reactor_channel.h"
#include "tests/unit/tracking/events/reactor_loop.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/dedup/impression_key.h"
#include "tracking/events/event_log.h"
#include "tracking/events/log_files.h"
#include "tracking/state/recovery.h"
#include "tracking/state/snapshot_format.h"

namespace tracking::state {
namespace {

using testing::ReactorLoop;
using testing::TemporaryDirectory;

// One a day: after a single counted impression the user is capped, so an impression lost
// or counted twice by recovery changes the answer.
const caps::CapRule kOneADay[] = {{1, 86400}};
std::span<const caps::CapRule> caps_of(uint64_t ad) {
  return ad == 2 ? std::span<const caps::CapRule>(kOneADay) : std::span<const caps::CapRule>();
}

// Counts impressions the way tracking/impressions/impression_counter.cc does: dedup, caps,
// then the line.
class Counter {
 public:
  Counter(CoreState& state, events::EventLog& log) : state_(state), log_(log) {}

  void count(uint32_t user_index, uint64_t token_id) {
    const std::string user = "user-" + std::to_string(user_index);
    const uint64_t user_key = caps::user_key(user);
    const uint64_t key = dedup::impression_key(user_key, token_id);
    const int64_t now_ms = runtime::SystemClock::instance().wall_ns() / 1'000'000;
    const int64_t now_s = now_ms / 1000;
    const bool first = state_.dedup->first_sighting(key, now_s + 3600, now_s);
    if (first) state_.caps->record(user_key, 2, caps_of(2), now_s);
    events::EventRecord r;
    r.time_ms = now_ms;
    r.kind = "impression";
    r.ad = 2;
    r.user = user;
    r.tracking = true;
    r.duplicate = !first;
    r.issued_s = now_s;
    r.expires_s = now_s + 3600;
    r.token_id = token_id;
    log_.append(r);
    ++counted;
  }
  uint32_t counted = 0;

 private:
  CoreState& state_;
  events::EventLog& log_;
};

// New users while the loop runs, one impression per loop iteration, and every fifth call
// a repeat of the previous token.
class Arrivals final : public runtime::LoopHook {
 public:
  Arrivals(Counter& counter, uint32_t first_user) : counter_(counter), next_user_(first_user) {}
  void before_wait() override {
    if (!on) return;
    if (++calls_ % 5 == 0 && last_token_ != 0) {
      counter_.count(next_user_ - 1, last_token_);
      return;
    }
    last_token_ = 0x9e3779b97f4a7c15ull * (next_user_ + 1);
    counter_.count(next_user_++, last_token_);
  }
  uint32_t users_end() const { return next_user_; }
  bool on = true;

 private:
  Counter& counter_;
  uint32_t next_user_;
  uint64_t calls_ = 0;
  uint64_t last_token_ = 0;
};

uint64_t token_of(uint32_t user) { return 0x9e3779b97f4a7c15ull * (user + 1); }

// One core as the server runs it for snapshots: a real ring, a cap and dedup state, its
// event log (flushed every 20 ms) and the counter that feeds both.
struct CountingCore {
  static events::EventLogSettings log_settings(const std::string& state_dir) {
    events::EventLogSettings settings;
    settings.directory = events::core_dir(state_dir, 0);
    settings.flush_interval_ms = 20;
    return settings;
  }

  TemporaryDirectory dir;
  ReactorLoop loop;
  runtime::ReactorChannel channel{loop.reactor()};
  const runtime::Clock& clock = runtime::SystemClock::instance();
  CoreState state;
  events::EventLog log{loop.reactor(), loop.reactor().timers(), clock, log_settings(dir.path()), 0};
  Counter counter{state, log};
};

// The reactor's file I/O, but renames fail (EPERM) once `refuse_renames` is set: a writer
// that must stay alive while the loop runs can then put no newer snapshot in place.
class RenameRefusingFileIo final : public runtime::FileIo {
 public:
  explicit RenameRefusingFileIo(runtime::FileIo& real) : real_(real) {}
  bool refuse_renames = false;
  void write(int fd, const char* data, size_t length, uint64_t offset, runtime::FileCompletion& done,
             uint8_t tag) override {
    real_.write(fd, data, length, offset, done, tag);
  }
  void sync_data(int fd, runtime::FileCompletion& done, uint8_t tag) override { real_.sync_data(fd, done, tag); }
  void open(const char* path, int flags, unsigned mode, runtime::FileCompletion& done, uint8_t tag) override {
    real_.open(path, flags, mode, done, tag);
  }
  void close(int fd, runtime::FileCompletion& done, uint8_t tag) override { real_.close(fd, done, tag); }
  void rename(const char* from, const char* to, runtime::FileCompletion& done, uint8_t tag) override {
    if (refuse_renames) {
      done.on_file_complete(tag, -EPERM);
      return;
    }
    real_.rename(from, to, done, tag);
  }
  void unlink(const char* path, runtime::FileCompletion& done, uint8_t tag) override { real_.unlink(path, done, tag); }
  void add_loop_hook(runtime::LoopHook& hook) override { real_.add_loop_hook(hook); }
  void remove_loop_hook(runtime::LoopHook& hook) override { real_.remove_loop_hook(hook); }

 private:
  runtime::FileIo& real_;
};

TEST(SnapshotWriter, WrittenWhileImpressionsArriveRecoversToTheLiveStateCountingNothingTwice) {
  CountingCore core;
  ASSERT_TRUE(core.loop.ready());
  TemporaryDirectory& dir = core.dir;
  ReactorLoop& loop = core.loop;
  runtime::Reactor& reactor = loop.reactor();
  const runtime::Clock& clock = core.clock;
  CoreState& state = core.state;
  events::EventLog& log = core.log;
  Counter& counter = core.counter;
  ASSERT_TRUE(log.start().ok());

  // Enough users that the snapshot takes several write batches (about 1 MiB each).
  constexpr uint32_t kUsersBefore = 120'000;
  for (uint32_t u = 0; u < kUsersBefore; ++u) counter.count(u, token_of(u));
  Arrivals arrivals(counter, kUsersBefore);
  reactor.add_loop_hook(arrivals);

  // The writer outlives the last run of the loop, as in the server: destroyed while the
  // loop still runs, a completion of its last close or write would reach a dead object
  // (ASan: stack-use-after-scope). Once impressions stop, no later snapshot (one without
  // impressions between its shards) may take the place of the one this test reads.
  RenameRefusingFileIo io(reactor);
  SnapshotWriter writer(io, reactor.timers(), core.channel, clock, dir.path(), state, log, 30);
  writer.start();
  ASSERT_TRUE(loop.run_until([&] { return writer.counters().written.get() >= 1; }));
  EXPECT_EQ(writer.counters().failed.get(), 0u);
  loop.run_for(30);  // more impressions after the snapshot: only the log has them
  arrivals.on = false;
  io.refuse_renames = true;
  reactor.remove_loop_hook(arrivals);
  bool closed = false;
  log.close([&] { closed = true; });
  ASSERT_TRUE(loop.run_until([&] { return closed; }));
  EXPECT_EQ(log.counters().events_dropped.get(), 0u);

  // The shards were written at different points of the log: impressions came in between.
  std::ifstream in(snapshot_path(dir.path(), 0), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<SnapshotView> view = parse_snapshot(bytes);
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_LT(view->shards.front().seq, view->shards.back().seq);
  EXPECT_GE(view->shards.front().seq, kUsersBefore);

  const int64_t now_s = clock.wall_s();
  Recovered recovered = recover_state(dir.path(), 1, now_s, caps_of);
  EXPECT_EQ(recovered.report.snapshots_loaded, 1u);
  EXPECT_EQ(recovered.report.torn_lines, 0u);
  EXPECT_GT(recovered.report.impressions_replayed, 0u);
  EXPECT_LT(recovered.report.impressions_replayed, counter.counted - kUsersBefore);
  EXPECT_EQ(recovered.cores[0].next_seq, log.next_seq());

  CoreState& back = recovered.cores[0];
  EXPECT_EQ(back.caps->entries(), state.caps->entries());
  EXPECT_EQ(back.dedup->entries(), state.dedup->entries());
  uint32_t wrong = 0;
  for (uint32_t u = 0; u < arrivals.users_end(); ++u) {
    const uint64_t user_key = caps::user_key("user-" + std::to_string(u));
    const uint64_t key = dedup::impression_key(user_key, token_of(u));
    if (back.caps->allows(user_key, 2, caps_of(2), now_s) != state.caps->allows(user_key, 2, caps_of(2), now_s)) ++wrong;
    if (!back.dedup->contains(key, now_s)) ++wrong;
  }
  EXPECT_EQ(wrong, 0u);
}

// A snapshot the disk refuses (here its rename) leaves no partial temporary file behind:
// on a full disk those bytes are what the event log needs.
TEST(SnapshotWriter, ARefusedSnapshotRemovesItsTemporaryFile) {
  CountingCore core;
  ASSERT_TRUE(core.loop.ready());
  ASSERT_TRUE(core.log.start().ok());
  for (uint32_t u = 0; u < 1'000; ++u) core.counter.count(u, token_of(u));

  RenameRefusingFileIo io(core.loop.reactor());
  io.refuse_renames = true;
  SnapshotWriter writer(io, core.loop.reactor().timers(), core.channel, core.clock, core.dir.path(), core.state,
                        core.log, 30);
  writer.start();
  ASSERT_TRUE(core.loop.run_until([&] { return writer.counters().failed.get() >= 1; }));
  const std::string snapshot = snapshot_path(core.dir.path(), 0);
  // The unlink completes on a later turn of the loop, before the next attempt (30 ms on).
  EXPECT_TRUE(core.loop.run_until([&] { return !std::filesystem::exists(snapshot + ".tmp"); }));
  EXPECT_FALSE(std::filesystem::exists(snapshot));
  EXPECT_EQ(writer.counters().written.get(), 0u);

  bool closed = false;
  core.log.close([&] { closed = true; });
  ASSERT_TRUE(core.loop.run_until([&] { return closed; }));
}

}  // namespace
}  // namespace tracking::state
