#pragma once
// The one writer of append-only line files (docs/events.md, docs/access-log.md): per core,
// through the core's own ring, for logs that must never block a request. append() formats
// into memory and returns; once per loop turn (a LoopHook) everything appended is handed to
// one write, double buffered (one batch in flight, the next filling); every flush interval
// the written data is fdatasync'd; files rotate by size, and a file is never closed before
// its fdatasync. A disk that refuses (full, I/O error, read-only) keeps the refused batch
// for a retry every flush interval, holds new lines up to max_pending_bytes and drops,
// counting them, lines past that; healthy() is false until a write succeeds again. A disk
// that refuses the first file at start does not stop the start: the open is retried every
// flush interval. Nothing here waits.
//
// What a log makes of it stays its own: how files are named and what it hears of them
// (LineLogFiles: the event log names files by sequence number and keeps a sync histogram),
// the names its counters are exported under (LineLogCounterRefs), its line format.
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"
#include "runtime/file_io.h"
#include "runtime/line_buffers.h"
#include "runtime/line_log_files.h"
#include "runtime/timer_wheel.h"

namespace runtime {

struct LineLogSettings {
  std::string directory;                  // created at start when missing
  int64_t flush_interval_ms = 1000;       // fdatasync and retry interval
  uint64_t file_bytes = 256ull << 20;     // rotation size (a file may pass it by one batch)
  size_t max_pending_bytes = 8ull << 20;  // held while the disk refuses; past it lines are dropped
  size_t reserve_bytes = 256ull << 10;    // per buffer, reserved at construction
  std::string name = "log";               // in messages: "cannot create <name> file ..."
  // Benchmarks only: lines are formatted and counted as written, and then thrown away; no
  // file is opened. What a log's writes cost is then the difference (perf/event_log_load.sh).
  bool to_nowhere = false;
};

// Where a LineLog counts: at counters a log exports under names of its own (the event log's
// events_written, ...), or at a LineLogCounters (refs()).
struct LineLogCounterRefs {
  CoreCounter& lines_written;
  CoreCounter& writes;
  CoreCounter& bytes_written;
  CoreCounter& lines_dropped;
  CoreCounter& write_errors;
  CoreCounter& syncs;
  CoreCounter& pending_bytes;
  CoreCounter& files_opened;
};

// Per core, single writer; read by metrics scrapes.
struct LineLogCounters {
  CoreCounter lines_written;   // lines the kernel accepted
  CoreCounter bytes_written;
  CoreCounter lines_dropped;   // past the pending bound, after the close, or at shutdown on a refusing disk
  CoreCounter write_errors;    // writes, syncs or opens the kernel refused
  CoreCounter syncs;
  CoreCounter pending_bytes;   // appended, not yet written
  CoreCounter files_opened;
  CoreCounter writes;          // write operations (a batch each, or a retry, or a short write's rest)

  LineLogCounterRefs refs() {
    return {lines_written, writes, bytes_written, lines_dropped, write_errors, syncs, pending_bytes, files_opened};
  }
};

class LineLog final : private FileCompletion, private LoopHook, private Timer {
 public:
  // Files named by the wall clock (WallClockFiles).
  LineLog(FileIo& io, TimerWheel& timers, const Clock& clock, LineLogSettings settings, LineLogCounterRefs counters);
  // Files named, and their events heard, by `files`, which must outlive the log.
  LineLog(FileIo& io, TimerWheel& timers, const Clock& clock, LineLogSettings settings, LineLogCounterRefs counters,
          LineLogFiles& files);
  LineLog(const LineLog&) = delete;
  LineLog& operator=(const LineLog&) = delete;
  ~LineLog() override;

 private:
  // files null: wall_clock_files_. (The public constructors cannot name that member in a
  // delegation's arguments: they are evaluated before the object exists.)
  LineLog(FileIo& io, TimerWheel& timers, const Clock& clock, LineLogSettings settings, LineLogCounterRefs counters,
          LineLogFiles* files);

 public:

  // Creates the directory and opens the first file with plain system calls (core set-up,
  // before serving). A refusing disk does not stop the start: the log begins unhealthy and
  // tries again every flush interval; the returned status says why, for one stderr line.
  absl::Status start();

  // Appends one line: format() appends its bytes, line feed included, to the string it is
  // given. Returns false, counting the line as dropped, when past the pending bound or once
  // the close has finished. A line appended while a close runs is written by it.
  template <typename Format>
  bool append(Format&& format) {
    if (buffers_.pending_bytes() >= settings_.max_pending_bytes || closed_) {
      counters_.lines_dropped.add();
      return false;
    }
    buffers_.append(format);
    ++lines_appended_;
    counters_.pending_bytes.set(buffers_.held_bytes());
    return true;
  }
  uint64_t lines_appended() const { return lines_appended_; }
  uint64_t lines_in_kernel() const { return lines_in_kernel_; }
  // Lines appended and not yet handed to a write.
  uint64_t pending_lines() const { return buffers_.pending_lines(); }

  // Shutdown: writes what is pending, syncs, then calls done (on this core), once. A disk
  // that still refuses gets one retry, then the rest is counted as dropped.
  void close(std::function<void()> done);

  // Readable from any thread (metrics, /readyz).
  bool healthy() const { return healthy_.load(std::memory_order_relaxed); }

 private:
  enum Tag : uint8_t { kWrite = 1, kSync, kOpen, kRetireSync, kRetireClose, kFinalSync };

  void on_file_complete(uint8_t tag, int result) override;
  void before_wait() override { maybe_write(); }
  void on_expire() override;

  int open_first_file(std::string& path, int& refused);
  void maybe_write();
  void discard_pending();
  void submit_write();
  void open_next_file();
  void write_done(int result);
  void open_done(int result);
  void start_sync(Tag tag);
  void sync_done(int result);
  void retired(uint8_t tag, int result);
  void maybe_finish_close();
  void set_healthy(bool healthy) { healthy_.store(healthy, std::memory_order_relaxed); }

  FileIo& io_;
  TimerWheel& timers_;
  const Clock& clock_;
  const LineLogSettings settings_;
  const LineLogCounterRefs counters_;
  WallClockFiles wall_clock_files_;  // unless the log was given its own
  LineLogFiles& files_;
  LineBuffers buffers_;
  int fd_ = -1;
  uint64_t file_offset_ = 0;  // bytes of the current file written or in flight
  bool write_in_flight_ = false;
  bool opening_ = false;
  std::string opening_path_;  // stable while its open is in flight
  int retiring_fd_ = -1;      // the previous file: synced, then closed
  bool sync_in_flight_ = false;
  int64_t sync_started_ns_ = 0;
  uint64_t unsynced_bytes_ = 0;
  bool retry_due_ = false;    // a refused operation may be tried again
  std::atomic<bool> healthy_{true};
  bool closing_ = false;
  bool close_retried_ = false;
  bool closed_ = false;       // done has been called
  std::function<void()> on_closed_;
  bool started_ = false;
  uint64_t lines_appended_ = 0;
  uint64_t lines_in_kernel_ = 0;
};

}  // namespace runtime
