#include "tracking/events/event_log.h"

#include "tracking/events/event_line.h"
#include "tracking/events/log_files.h"

namespace tracking::events {

namespace {
// Reserved once per buffer so that a warm log appends without allocating.
constexpr size_t kReserveBytes = 1 << 20;

runtime::LineLogSettings writer_settings(EventLogSettings settings) {
  runtime::LineLogSettings writer;
  writer.directory = std::move(settings.directory);
  writer.flush_interval_ms = settings.flush_interval_ms;
  writer.file_bytes = settings.file_bytes;
  writer.max_pending_bytes = settings.max_pending_bytes;
  writer.to_nowhere = settings.to_nowhere;
  writer.reserve_bytes = kReserveBytes;
  writer.name = "event log";
  return writer;
}

runtime::LineLogCounterRefs writer_counters(EventLogCounters& c) {
  return {c.events_written, c.writes,       c.bytes_written, c.events_dropped, c.write_errors,
          c.syncs,          c.pending_bytes, c.files_opened,  c.writes_waited};
}
}  // namespace

EventLog::EventLog(runtime::FileIo& io, runtime::TimerWheel& timers, const runtime::Clock& clock,
                   EventLogSettings settings, uint64_t next_seq)
    : seq_(next_seq),
      writer_(io, timers, clock, writer_settings(std::move(settings)), writer_counters(counters_), *this) {}

absl::Status EventLog::start() {
  // A new file named by the next line. One of that name may exist: empty (the last run
  // wrote nothing after opening it), which is reused; or holding only a torn line (a crash
  // cut the first line short), which is left as it is for readers to skip, the sequence
  // then moving on by one. A refusing disk is not an error of the start (docs/events.md).
  if (absl::Status opened = writer_.start(); !opened.ok()) start_error_ = std::string(opened.message());
  return absl::OkStatus();
}

uint64_t EventLog::append(const EventRecord& record) {
  const uint64_t seq = seq_.take();
  const bool first_held = writer_.pending_lines() == 0;
  const bool held = writer_.append([&record, seq](std::string& out) { append_event_line(record, seq, out); });
  if (held && first_held) seq_.held_first(seq);
  return seq;
}

std::string EventLog::next_name(bool lines_held) { return log_file_name(seq_.name_next(lines_held)); }

void EventLog::synced(int64_t latency_ns) {
  const uint64_t latency_us = static_cast<uint64_t>(latency_ns / 1000);
  counters_.sync_latency_us.set(latency_us);
  if (latency_us > counters_.sync_latency_us_max.get()) counters_.sync_latency_us_max.set(latency_us);
  size_t bucket = 0;
  while (bucket < kSyncBucketsUs.size() && static_cast<int64_t>(latency_us) > kSyncBucketsUs[bucket]) ++bucket;
  counters_.sync_buckets[bucket].add();
  counters_.sync_ns_sum.add(static_cast<uint64_t>(latency_ns));
}

}  // namespace tracking::events
