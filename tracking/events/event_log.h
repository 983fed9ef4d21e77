#pragma once
// One core's event log (docs/events.md), written by the one line writer, runtime::LineLog:
// append() formats a line into memory and returns at once; once per loop iteration
// everything appended in it goes to the core's ring as a write of its own, whatever writes
// are still in flight, so a reply and the write of its line leave together; every
// --events-flush the written data is fdatasync'd, so a crash of the machine loses at most
// that interval; a crash of the process alone loses only what was not yet handed to the
// kernel. Files rotate at --events-file-bytes; the next file is named by its first line,
// so it opens once the current file's writes have landed, and the lines of the iterations
// until its open completes wait for it. A disk that refuses writes never blocks or fails a
// request: lines are held up to max_pending_bytes, past that dropped and counted.
//
// What is the event log's own: its files are named by the sequence number of their first
// line (log_files.h, log_seq.h), recovered at start; its health drives /readyz (503 while
// healthy() is false); its close writes and syncs every accepted line before the core
// stops; its line format (event_line.h); its fdatasync duration histogram.
#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/status.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"
#include "runtime/file_io.h"
#include "runtime/line_log.h"
#include "runtime/line_log_files.h"
#include "runtime/timer_wheel.h"
#include "tracking/events/event_record.h"
#include "tracking/events/log_seq.h"

namespace tracking::events {

struct EventLogSettings {
  std::string directory;              // this core's: <state-dir>/events/core-<N>
  int64_t flush_interval_ms = 1000;   // --events-flush
  uint64_t file_bytes = 256ull << 20; // --events-file-bytes
  // Lines appended but not yet written, while the disk refuses: past this, lines are dropped.
  size_t max_pending_bytes = 64ull << 20;
  bool to_nowhere = false;            // --benchmark-events-to-nowhere: formatted, counted, not written
};

// Upper bounds of the fdatasync duration histogram: from an idle SSD's tens of
// microseconds to a saturated network disk's seconds.
inline constexpr std::array<int64_t, 15> kSyncBucketsUs = {
    50, 100, 250, 500, 1'000, 2'500, 5'000, 10'000, 25'000, 50'000, 100'000, 250'000, 500'000,
    1'000'000, 2'500'000};

// Per core, single writer; read by metrics scrapes.
struct EventLogCounters {
  runtime::CoreCounter events_written;   // lines the kernel accepted
  runtime::CoreCounter writes;           // write operations (a batch each, a retry, or a short write's rest)
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
  runtime::CoreCounter writes_waited;    // loop turns whose lines waited: every batch buffer in flight (a stalled disk)
};

class EventLog final : private runtime::LineLogFiles {
 public:
  // next_seq: the sequence number of the first line this log writes (recovered at start).
  EventLog(runtime::FileIo& io, runtime::TimerWheel& timers, const runtime::Clock& clock,
           EventLogSettings settings, uint64_t next_seq);
  EventLog(const EventLog&) = delete;
  EventLog& operator=(const EventLog&) = delete;

  // Creates the directory and opens a new file; at core set-up, before serving. Starts the
  // flush timer and the loop hook. A disk that refuses the file does not stop the start:
  // the log begins unhealthy, holds lines, tries the open again every flush interval, and
  // start_error() says why.
  absl::Status start();
  const std::string& start_error() const { return start_error_; }

  // The line's sequence number. Never fails; a line past the pending bound is dropped and
  // counted, and still consumes its number.
  uint64_t append(const EventRecord& record);

  // The sequence number the next line will get: every line before it has been appended.
  uint64_t next_seq() const { return seq_.next(); }

  // Shutdown: writes what is pending, syncs, then calls done (on this core). A disk that
  // still refuses gets one retry, then the rest is counted as dropped.
  void close(std::function<void()> done) { writer_.close(std::move(done)); }

  // Readable from any thread (for /readyz on any core).
  bool healthy() const { return writer_.healthy(); }
  // The writer, for what waits on its lines: lines_appended() and lines_in_kernel() say
  // which have had their write complete (runtime/answer_gate.h). On this log's core only.
  const runtime::LineLog& writer() const { return writer_; }
  const EventLogCounters& counters() const { return counters_; }

 private:
  // runtime::LineLogFiles: files named by their first line's sequence number.
  std::string next_name(bool lines_held) override;
  bool reuse_empty_file() const override { return true; }
  // A file's name is its first line's number: no line after it may go to the file before.
  bool holds_lines_while_opening() const override { return true; }
  void name_taken() override { seq_.name_taken(); }
  void file_opened() override { seq_.file_opened(); }
  void synced(int64_t latency_ns) override;  // the duration histogram

  EventLogCounters counters_;
  LogSeq seq_;
  std::string start_error_;
  runtime::LineLog writer_;  // last: it goes first, and its hooks with it
};

}  // namespace tracking::events
