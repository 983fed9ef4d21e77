#pragma once
// The one writer of append-only line files (docs/events.md, docs/access-log.md): per core,
// through the core's own ring, for logs that must never block a request. append() formats
// into memory and returns; once per loop turn (a LoopHook, which runs just before the
// io_uring_enter that also sends the turn's replies) everything appended in the turn is
// handed to a write of its own, at its own offset of the file, whatever else is in flight:
// several writes may be in flight at once (up to LineBuffers::kMaxBatchesInFlight; at that
// bound the disk has stalled, and lines wait in memory, each such turn counted in
// writes_waited). So on a healthy disk a reply and the write of the lines it acknowledges
// leave in the same io_uring_enter. Completions may come in any order; a short write's rest
// is written at once at its own offset. lines_in_kernel() says which lines have landed.
//
// Every flush interval the written data is fdatasync'd (everything whose write completed
// before the sync started). Files rotate by size; a file is never closed before every write
// to it has completed and its fdatasync. While the next file opens and the previous one
// syncs, lines go on to the current file, which may pass file_bytes by those turns' lines;
// the next file takes the lines not yet handed to a write when its open completes. A log whose files' names
// bound the lines before them (LineLogFiles::holds_lines_while_opening: the event log names
// a file by its first line) has the open wait for the current file's writes, and the lines
// of those turns wait for the new file, as they always did.
//
// A disk that refuses (full, I/O error, read-only) keeps each refused batch, at its offset,
// for a retry every flush interval (so the file keeps no hole once writes succeed again),
// holds new lines up to max_pending_bytes and drops, counting them, lines past that;
// healthy() is false until a write succeeds again. A disk that refuses the first file at
// start does not stop the start: the open is retried every flush interval. Nothing here
// waits.
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
  // Rotation size; a file passes it by the lines of the turns until the next file is open,
  // and while the previous one still retires.
  uint64_t file_bytes = 256ull << 20;
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
  CoreCounter& writes_waited;
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
  CoreCounter writes_waited;   // loop turns whose lines waited: every batch buffer was in flight (a stalled disk)

  LineLogCounterRefs refs() {
    return {lines_written, writes,       bytes_written, lines_dropped, write_errors,
            syncs,         pending_bytes, files_opened, writes_waited};
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
    counters_.pending_bytes.set(buffers_.held_bytes());
    return true;
  }
  // Lines appended and not yet handed to a write.
  uint64_t pending_lines() const { return buffers_.pending_lines(); }
  // Lines append() accepted since the start (monotonic; dropped lines are not counted).
  uint64_t lines_appended() const { return buffers_.lines_appended(); }
  // Lines whose write has completed, as a prefix: every line appended up to this count
  // (1-based, as lines_appended() counts them) is in the kernel's page cache and survives
  // the process being killed; a line after it may be too, but one before a write still in
  // flight or refused is not counted. Monotonic, at most lines_appended(). A caller that must
  // not acknowledge a line before it is in the kernel notes lines_appended() after its
  // append and waits for lines_in_kernel() to reach it. Both are plain reads, on the log's
  // own core only. Lines dropped at a close on a refusing disk never reach it.
  uint64_t lines_in_kernel() const { return buffers_.lines_in_kernel(); }

  // Shutdown: writes what is pending, syncs, then calls done (on this core), once. A disk
  // that still refuses gets one retry, then the rest is counted as dropped.
  void close(std::function<void()> done);

  // Readable from any thread (metrics, /readyz).
  bool healthy() const { return healthy_.load(std::memory_order_relaxed); }

 private:
  // A write's tag is kWrite plus its batch's slot.
  enum Tag : uint8_t { kSync = 1, kOpen, kRetireSync, kRetireClose, kFinalSync, kWrite = 32 };
  static_assert(kWrite + LineBuffers::kMaxBatchesInFlight <= 256, "a write's tag holds its slot");

  void on_file_complete(uint8_t tag, int result) override;
  void before_wait() override { maybe_write(); }
  void on_expire() override;

  int open_first_file(std::string& path, int& refused);
  void maybe_write();
  bool retry_held();
  bool rotate();
  void discard_pending();
  void submit_write(uint32_t slot);
  void open_next_file();
  void write_done(uint32_t slot, int result);
  void maybe_retire();
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
  uint64_t file_offset_ = 0;  // bytes of the current file handed to writes (landed, in flight or held)
  bool opening_ = false;
  std::string opening_path_;  // stable while its open is in flight
  int retiring_fd_ = -1;      // the previous file: its writes land, then it is synced and closed
  bool retire_syncing_ = false;
  bool sync_in_flight_ = false;
  int64_t sync_started_ns_ = 0;
  uint64_t unsynced_bytes_ = 0;  // of the current file, landed since the last sync started
  bool retry_due_ = false;    // a refused operation may be tried again
  std::atomic<bool> healthy_{true};
  bool closing_ = false;
  bool close_retried_ = false;
  bool closed_ = false;       // done has been called
  std::function<void()> on_closed_;
  bool started_ = false;
};

}  // namespace runtime
