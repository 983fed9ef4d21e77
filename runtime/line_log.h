#pragma once
// A per-core, append-only file of lines written through the core's own ring, for logs that
// must never block a request (the access log): append() formats into memory and returns;
// once per loop turn (a LoopHook) everything appended is handed to one write, double
// buffered (one batch in flight, the next filling); every flush interval the written data
// is fdatasync'd; files rotate by size. A disk that refuses (full, I/O error, read-only)
// keeps the refused batch for a retry every flush interval, holds new lines up to
// max_pending_bytes and drops, counting them, lines past that. Nothing here waits.
//
// The mechanism is the event log's (tracking/events/event_log.h), which keeps its own copy:
// its files are named by line sequence numbers recovered at start, its health drives
// /readyz, and its close is part of the exactly-once promise; moving it onto this class is
// left for a change that reruns its durability tests (docs/access-log.md).
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"
#include "runtime/file_io.h"
#include "runtime/timer_wheel.h"

namespace runtime {

struct LineLogSettings {
  std::string directory;                // created at start when missing
  int64_t flush_interval_ms = 1000;     // fdatasync and retry interval
  uint64_t file_bytes = 256ull << 20;   // rotation size (a file may pass it by one batch)
  size_t max_pending_bytes = 8ull << 20;  // held while the disk refuses; past it lines are dropped
};

// Per core, single writer; read by metrics scrapes.
struct LineLogCounters {
  CoreCounter lines_written;   // lines the kernel accepted
  CoreCounter bytes_written;
  CoreCounter lines_dropped;   // past the pending bound, or at shutdown on a refusing disk
  CoreCounter write_errors;    // writes, syncs or opens the kernel refused
  CoreCounter syncs;
  CoreCounter pending_bytes;   // appended, not yet written
  CoreCounter files_opened;
};

class LineLog final : private FileCompletion, private LoopHook, private Timer {
 public:
  LineLog(FileIo& io, TimerWheel& timers, const Clock& clock, LineLogSettings settings);
  LineLog(const LineLog&) = delete;
  LineLog& operator=(const LineLog&) = delete;
  ~LineLog() override;

  // Creates the directory and opens the first file with plain system calls (core set-up,
  // before serving). A refusing disk does not stop the start: the log begins unhealthy and
  // tries again every flush interval; the returned status says why, for one stderr line.
  absl::Status start();

  // Appends one line: format() appends its bytes (without the line feed) to the string it
  // is given. Returns false, counting the line as dropped, when past the pending bound.
  template <typename Format>
  bool append(Format&& format) {
    if (pending_.size() >= settings_.max_pending_bytes || closing_) {
      counters_.lines_dropped.add();
      return false;
    }
    format(pending_);
    pending_.push_back('\n');
    ++pending_lines_;
    counters_.pending_bytes.set(pending_.size() + (writing_.size() - writing_done_));
    return true;
  }

  // Shutdown: writes what is pending, syncs, then calls done (on this core). A disk that
  // still refuses gets one retry, then the rest is counted as dropped.
  void close(std::function<void()> done);

  // Readable from any thread (metrics).
  bool healthy() const { return healthy_.load(std::memory_order_relaxed); }
  const LineLogCounters& counters() const { return counters_; }
  // Files are named by the wall-clock millisecond they were opened, 13 digits, ".jsonl"
  // (increasing within a run, so names sort in write order).
  static std::string file_name(int64_t wall_ms);

 private:
  enum Tag : uint8_t { kWrite = 1, kSync, kOpen, kRetireSync, kRetireClose, kFinalSync };

  void on_file_complete(uint8_t tag, int result) override;
  void before_wait() override { maybe_write(); }
  void on_expire() override;

  void maybe_write();
  void submit_write();
  void open_next_file();
  void write_done(int result);
  void open_done(int result);
  void sync_done(int result);
  void maybe_finish_close();
  std::string next_path();

  FileIo& io_;
  TimerWheel& timers_;
  const Clock& clock_;
  const LineLogSettings settings_;
  int fd_ = -1;
  uint64_t file_offset_ = 0;
  int64_t last_name_ms_ = 0;
  std::string pending_;
  uint64_t pending_lines_ = 0;
  std::string writing_;
  size_t writing_done_ = 0;
  uint64_t writing_lines_ = 0;
  bool write_in_flight_ = false;
  bool opening_ = false;
  std::string opening_path_;  // stable while its open is in flight
  int retiring_fd_ = -1;      // the previous file: synced, then closed
  bool sync_in_flight_ = false;
  uint64_t unsynced_bytes_ = 0;
  bool retry_due_ = false;
  std::atomic<bool> healthy_{true};
  void set_healthy(bool healthy) { healthy_.store(healthy, std::memory_order_relaxed); }
  bool closing_ = false;
  bool close_retried_ = false;
  std::function<void()> on_closed_;
  bool started_ = false;
  LineLogCounters counters_;
};

}  // namespace runtime
