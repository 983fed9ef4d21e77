#pragma once
// Writes one core's snapshot every --snapshot-interval while the core serves, never as one
// stop-the-world copy: shards are serialized into a batch of about 1 MiB (kWriteBatchBytes),
// the batch goes out through the core's ring, and the walk resumes only when that write
// completes, in a later loop iteration. So requests are handled between batches, and one
// iteration serializes at most a batch plus one shard (the state's size / 1024). (A step
// posts the next to the core itself; the core drains its own queue to the end, so steps of
// one batch run back to back: the batch, not the shard, is the unit between requests.)
// Bytes go to a temporary file that is fdatasync'd and renamed into place: a crash leaves
// the previous snapshot whole. A failed snapshot is counted and tried again at the next
// interval; the log still holds everything, so only start-up time is at stake.
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "runtime/clock.h"
#include "runtime/core_channel.h"
#include "runtime/core_counter.h"
#include "runtime/file_io.h"
#include "runtime/timer_wheel.h"
#include "tracking/events/event_log.h"
#include "tracking/state/core_state.h"

struct XXH3_state_s;

namespace tracking::state {

struct SnapshotCounters {
  runtime::CoreCounter written;
  runtime::CoreCounter failed;
  runtime::CoreCounter last_bytes;
  runtime::CoreCounter last_duration_ms;
};

class SnapshotWriter final : private runtime::FileCompletion, private runtime::Timer {
 public:
  SnapshotWriter(runtime::FileIo& io, runtime::TimerWheel& timers, runtime::CoreChannel& channel,
                 const runtime::Clock& clock, const std::string& state_dir, CoreState& state,
                 const events::EventLog& log, int64_t interval_ms);
  SnapshotWriter(const SnapshotWriter&) = delete;
  SnapshotWriter& operator=(const SnapshotWriter&) = delete;
  ~SnapshotWriter() override;

  void start() { timers_.schedule(*this, interval_ms_); }
  // One shard, then the next step is posted (run by the step message).
  void step();
  const SnapshotCounters& counters() const { return counters_; }

 private:
  enum Tag : uint8_t { kOpen = 1, kWrite, kSync, kRename, kClose, kUnlink };

  void on_expire() override;
  void on_file_complete(uint8_t tag, int result) override;
  void post_step();
  void submit_write();
  // Counts and logs a refused step (result: -errno, or 0 for a write that made no progress).
  void fail(const char* step, int result);

  runtime::FileIo& io_;
  runtime::TimerWheel& timers_;
  runtime::CoreChannel& channel_;
  const runtime::Clock& clock_;
  CoreState& state_;
  const events::EventLog& log_;
  const int64_t interval_ms_;
  const std::string path_;
  const std::string temporary_path_;
  XXH3_state_s* checksum_;
  bool in_progress_ = false;
  bool write_in_flight_ = false;
  int fd_ = -1;
  uint32_t next_shard_ = 0;
  uint64_t file_offset_ = 0;
  int64_t started_ms_ = 0;
  std::string buffer_;
  size_t buffer_written_ = 0;
  std::string caps_scratch_;
  std::string dedup_scratch_;
  SnapshotCounters counters_;
};

// Writes a core's whole snapshot at once with plain system calls: at start-up, before the
// cores serve (after --cores changed, the old snapshots no longer name the owners).
absl::Status write_snapshot_now(const std::string& state_dir, uint32_t core, uint32_t cores, const CoreState& state,
                                int64_t now_s);

}  // namespace tracking::state
