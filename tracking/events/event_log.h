#pragma once
// One core's event log writer (docs/events.md). append() formats a line into memory and
// returns at once; once per loop iteration everything appended is handed to the core's
// ring as one write (double buffered: one batch in flight, the next filling). Every
// --events-flush the written data is fdatasync'd, so a crash of the machine loses at most
// that interval; a crash of the process alone loses only what was not yet written, at most
// one loop iteration. Files rotate at --events-file-bytes.
//
// A disk that refuses writes (full, I/O error) never blocks or fails a request: the batch
// is kept and retried every flush interval, new lines keep collecting up to
// max_pending_bytes, lines past that are dropped and counted, and healthy() is false (so
// /readyz is 503) until a write succeeds again.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"
#include "runtime/file_io.h"
#include "runtime/timer_wheel.h"
#include "tracking/events/event_record.h"

namespace tracking::events {

struct EventLogSettings {
  std::string directory;              // this core's: <state-dir>/events/core-<N>
  int64_t flush_interval_ms = 1000;   // --events-flush
  uint64_t file_bytes = 256ull << 20; // --events-file-bytes
  // Lines appended but not yet written, while the disk refuses: past this, lines are dropped.
  size_t max_pending_bytes = 64ull << 20;
};

// Upper bounds of the fdatasync duration histogram: from an idle SSD's tens of
// microseconds to a saturated network disk's seconds.
inline constexpr std::array<int64_t, 15> kSyncBucketsUs = {
    50, 100, 250, 500, 1'000, 2'500, 5'000, 10'000, 25'000, 50'000, 100'000, 250'000, 500'000,
    1'000'000, 2'500'000};

// Per core, single writer; read by metrics scrapes.
struct EventLogCounters {
  runtime::CoreCounter events_written;   // lines the kernel accepted
  runtime::CoreCounter writes;           // write operations (a batch each, or a retry)
  runtime::CoreCounter bytes_written;
  runtime::CoreCounter events_dropped;   // lines lost: past the pending bound, or at shutdown on a refusing disk
  runtime::CoreCounter write_errors;     // writes, syncs or opens the kernel refused
  runtime::CoreCounter syncs;
  runtime::CoreCounter sync_latency_us;  // of the last fdatasync
  runtime::CoreCounter sync_latency_us_max;
  // fdatasyncs by duration: per bucket of kSyncBucketsUs, the last +Inf (readers make them
  // cumulative), and the sum of their durations.
  std::array<runtime::CoreCounter, kSyncBucketsUs.size() + 1> sync_buckets;
  runtime::CoreCounter sync_ns_sum;
  runtime::CoreCounter pending_bytes;    // appended, not yet written
  runtime::CoreCounter files_opened;
};

class EventLog final : private runtime::FileCompletion, private runtime::LoopHook, private runtime::Timer {
 public:
  // next_seq: the sequence number of the first line this log writes (recovered at start).
  EventLog(runtime::FileIo& io, runtime::TimerWheel& timers, const runtime::Clock& clock,
           EventLogSettings settings, uint64_t next_seq);
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;
  ~EventLog() override;

  // Creates the directory and opens a new file; at core set-up, before serving (a plain
  // system call is fine then). Starts the flush timer and the loop hook. A disk that refuses
  // the file does not stop the start: the log begins unhealthy, holds lines, tries the open
  // again every flush interval, and start_error() says why.
  absl::Status start();
  const std::string& start_error() const { return start_error_; }

  // The line's sequence number. Never fails; a line past the pending bound is dropped and
  // counted, and still consumes its number.
  uint64_t append(const EventRecord& record);

  // The sequence number the next line will get: every line before it has been appended.
  uint64_t next_seq() const { return next_seq_; }

  // Shutdown: writes what is pending, syncs, then calls done (on this core). A disk that
  // still refuses gets one retry, then the rest is counted as dropped.
  void close(std::function<void()> done);

  // Readable from any thread (for /readyz on any core).
  bool healthy() const { return healthy_.load(std::memory_order_relaxed); }
  const EventLogCounters& counters() const { return counters_; }

 private:
  enum Tag : uint8_t { kWrite = 1, kSync, kOpen, kRetireSync, kRetireClose, kFinalSync };

  void on_file_complete(uint8_t tag, int result) override;
  void before_wait() override;
  void on_expire() override;  // the flush interval

  void maybe_write();
  void submit_write();
  void rotate();
  void open_first_file();
  void write_done(int result);
  void open_done(int result);
  void sync_done(int result);
  void set_healthy(bool healthy);
  void maybe_finish_close();

  runtime::FileIo& io_;
  runtime::TimerWheel& timers_;
  const runtime::Clock& clock_;
  const EventLogSettings settings_;
  uint64_t next_seq_;
  int fd_ = -1;
  uint64_t file_offset_ = 0;  // bytes of the current file written or in flight
  std::string pending_;       // lines not yet handed to the kernel
  uint64_t pending_lines_ = 0;
  uint64_t pending_first_seq_ = 0;
  std::string writing_;       // the batch in flight (or waiting for a retry)
  size_t writing_done_ = 0;   // of it, bytes written
  uint64_t writing_lines_ = 0;
  bool write_in_flight_ = false;
  bool opening_ = false;
  std::string opening_path_;  // stable while its open is in flight
  uint64_t opening_first_seq_ = 0;
  int retiring_fd_ = -1;      // the previous file: synced, then closed
  bool sync_in_flight_ = false;
  int64_t sync_started_ns_ = 0;
  uint64_t unsynced_bytes_ = 0;
  bool retry_due_ = false;    // a refused operation may be tried again
  std::atomic<bool> healthy_{true};
  bool closing_ = false;
  bool close_retried_ = false;
  std::function<void()> on_closed_;
  bool started_ = false;
  std::string start_error_;
  EventLogCounters counters_;
};

}  // namespace tracking::events
