#include "tracking/events/event_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "tracking/events/event_line.h"
#include "tracking/events/log_files.h"

namespace tracking::events {

namespace {
constexpr int kOpenFlags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
constexpr unsigned kFileMode = 0640;
// Reserved once so that a warm log appends without allocating.
constexpr size_t kInitialBufferBytes = 1 << 20;
}  // namespace

EventLog::EventLog(runtime::FileIo& io, runtime::TimerWheel& timers, const runtime::Clock& clock,
                   EventLogSettings settings, uint64_t next_seq)
    : io_(io), timers_(timers), clock_(clock), settings_(std::move(settings)), next_seq_(next_seq) {
  pending_.reserve(kInitialBufferBytes);
  writing_.reserve(kInitialBufferBytes);
  pending_first_seq_ = next_seq_;
}

EventLog::~EventLog() {
  if (started_) {
    io_.remove_loop_hook(*this);
    timers_.cancel(*this);
  }
  // The loop has ended: plain system calls are fine here.
  if (fd_ >= 0) ::close(fd_);
  if (retiring_fd_ >= 0) ::close(retiring_fd_);
}

absl::Status EventLog::start() {
  std::error_code error;
  std::filesystem::create_directories(settings_.directory, error);
  // A new file named by the next line. One of that name may exist: empty (the last run
  // wrote nothing after opening it), which is reused; or holding only a torn line (a crash
  // cut the first line short), which is left as it is for readers to skip, the sequence
  // then moving on by one (numbers are increasing, not gapless).
  std::string path;
  int refused = error ? error.value() : 0;
  for (int attempt = 0; !error && attempt < 64 && fd_ < 0; ++attempt) {
    path = log_file_path(settings_.directory, next_seq_);
    fd_ = ::open(path.c_str(), kOpenFlags, kFileMode);
    refused = fd_ >= 0 ? 0 : errno;
    if (fd_ >= 0 || errno != EEXIST) break;
    const int existing = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    struct stat st;
    if (existing >= 0 && ::fstat(existing, &st) == 0 && st.st_size == 0) {
      fd_ = existing;
      refused = 0;
      break;
    }
    if (existing < 0) refused = errno;
    if (existing >= 0) ::close(existing);
    ++next_seq_;
  }
  if (fd_ < 0) {
    // The disk refuses (read-only, full, I/O error): the core serves all the same, as it
    // does when the disk refuses later (docs/events.md). Lines collect in memory, the
    // log is unhealthy (/readyz 503), and the open is tried again every flush interval.
    start_error_ = "cannot create event log file " + (error ? settings_.directory : path) + ": " +
                   std::strerror(refused != 0 ? refused : EIO);
    counters_.write_errors.add();
    set_healthy(false);
  } else {
    counters_.files_opened.add();
  }
  pending_first_seq_ = next_seq_;
  file_offset_ = 0;
  io_.add_loop_hook(*this);
  timers_.schedule(*this, settings_.flush_interval_ms);
  started_ = true;
  return absl::OkStatus();
}

uint64_t EventLog::append(const EventRecord& record) {
  const uint64_t seq = next_seq_++;
  if (pending_.size() >= settings_.max_pending_bytes) {
    counters_.events_dropped.add();
    return seq;
  }
  if (pending_lines_ == 0) pending_first_seq_ = seq;
  append_event_line(record, seq, pending_);
  ++pending_lines_;
  counters_.pending_bytes.set(pending_.size() + (writing_.size() - writing_done_));
  return seq;
}

void EventLog::before_wait() { maybe_write(); }

void EventLog::maybe_write() {
  if (write_in_flight_ || opening_ || !started_) return;
  if (fd_ < 0) {  // no file yet: the disk refused it at start; tried again when a retry is due
    if (!retry_due_) return;
    retry_due_ = false;
    if (closing_ && pending_.empty()) {
      maybe_finish_close();
      return;
    }
    open_first_file();
    return;
  }
  if (!healthy() && !retry_due_) return;
  retry_due_ = false;
  if (writing_done_ < writing_.size()) {  // a refused batch, again
    submit_write();
    return;
  }
  if (pending_.empty()) {
    maybe_finish_close();
    return;
  }
  // While the previous file's fdatasync still runs, this one grows past the bound a little
  // rather than being closed unsynced by a second rotation.
  if (file_offset_ >= settings_.file_bytes && retiring_fd_ < 0) {
    rotate();
    return;
  }
  writing_.clear();
  writing_done_ = 0;
  writing_.swap(pending_);
  writing_lines_ = pending_lines_;
  pending_lines_ = 0;
  submit_write();
}

void EventLog::submit_write() {
  write_in_flight_ = true;
  counters_.writes.add();
  io_.write(fd_, writing_.data() + writing_done_, writing_.size() - writing_done_, file_offset_, *this, kWrite);
}

void EventLog::rotate() {
  // The new file is named by the first line it will hold.
  opening_ = true;
  opening_first_seq_ = pending_first_seq_;
  opening_path_ = log_file_path(settings_.directory, opening_first_seq_);
  io_.open(opening_path_.c_str(), kOpenFlags, kFileMode, *this, kOpen);
}

void EventLog::open_first_file() {
  // A plain mkdir on the loop, once per flush interval and only while no file is open: the
  // directory may be missing when the disk refused it at start.
  std::error_code ignored;
  std::filesystem::create_directories(settings_.directory, ignored);
  opening_ = true;
  opening_first_seq_ = pending_lines_ > 0 ? pending_first_seq_ : next_seq_;
  opening_path_ = log_file_path(settings_.directory, opening_first_seq_);
  io_.open(opening_path_.c_str(), kOpenFlags, kFileMode, *this, kOpen);
}

void EventLog::on_file_complete(uint8_t tag, int result) {
  switch (tag) {
    case kWrite: write_done(result); return;
    case kOpen: open_done(result); return;
    case kSync:
    case kFinalSync: sync_done(result); if (tag == kFinalSync) maybe_finish_close(); return;
    case kRetireSync:
      // Whatever the sync said, the descriptor goes; a failed sync was counted.
      if (result < 0) counters_.write_errors.add();
      io_.close(retiring_fd_, *this, kRetireClose);
      return;
    case kRetireClose:
      retiring_fd_ = -1;
      // A rotation, or the end of a close, may have waited for this one. (One call: the
      // close's callback may end the log.)
      if (closing_) {
        maybe_finish_close();
      } else {
        maybe_write();
      }
      return;
    default: return;
  }
}

void EventLog::write_done(int result) {
  write_in_flight_ = false;
  if (result <= 0) {
    // ENOSPC, EIO, EROFS...; 0 would be a write that cannot progress. Keep the batch.
    counters_.write_errors.add();
    set_healthy(false);
    if (closing_) maybe_finish_close();
    return;
  }
  writing_done_ += static_cast<size_t>(result);
  file_offset_ += static_cast<uint64_t>(result);
  unsynced_bytes_ += static_cast<uint64_t>(result);
  counters_.bytes_written.add(static_cast<uint64_t>(result));
  set_healthy(true);
  if (writing_done_ < writing_.size()) {  // short write: the rest, at once
    submit_write();
    return;
  }
  counters_.events_written.add(writing_lines_);
  writing_lines_ = 0;
  counters_.pending_bytes.set(pending_.size());
  maybe_write();
}

void EventLog::open_done(int result) {
  opening_ = false;
  if (result < 0) {
    counters_.write_errors.add();
    set_healthy(false);
    if (closing_) maybe_finish_close();
    return;
  }
  counters_.files_opened.add();
  if (fd_ >= 0) {
    // The previous file keeps its data: synced, then closed, off the request path. (No
    // rotation starts while one is retiring: maybe_write waits for it.)
    retiring_fd_ = fd_;
    io_.sync_data(retiring_fd_, *this, kRetireSync);
  } else {
    // The first file, which the disk refused at start: held lines go out at once, and with
    // none held the log is healthy again now.
    if (pending_.empty()) set_healthy(true);
    retry_due_ = true;
  }
  fd_ = result;
  file_offset_ = 0;
  unsynced_bytes_ = 0;
  maybe_write();
}

void EventLog::on_expire() {
  timers_.schedule(*this, settings_.flush_interval_ms);
  if (!healthy()) retry_due_ = true;  // the loop hook retries
  if (unsynced_bytes_ > 0 && !sync_in_flight_ && fd_ >= 0) {
    sync_in_flight_ = true;
    unsynced_bytes_ = 0;
    sync_started_ns_ = clock_.monotonic_ns();
    io_.sync_data(fd_, *this, kSync);
  }
}

void EventLog::sync_done(int result) {
  sync_in_flight_ = false;
  if (result < 0) {
    counters_.write_errors.add();
    set_healthy(false);
    return;
  }
  counters_.syncs.add();
  const int64_t latency_ns = clock_.monotonic_ns() - sync_started_ns_;
  const uint64_t latency_us = static_cast<uint64_t>(latency_ns / 1000);
  counters_.sync_latency_us.set(latency_us);
  if (latency_us > counters_.sync_latency_us_max.get()) counters_.sync_latency_us_max.set(latency_us);
  size_t bucket = 0;
  while (bucket < kSyncBucketsUs.size() && static_cast<int64_t>(latency_us) > kSyncBucketsUs[bucket]) ++bucket;
  counters_.sync_buckets[bucket].add();
  counters_.sync_ns_sum.add(static_cast<uint64_t>(latency_ns));
}

void EventLog::set_healthy(bool healthy) { healthy_.store(healthy, std::memory_order_relaxed); }

void EventLog::close(std::function<void()> done) {
  closing_ = true;
  on_closed_ = std::move(done);
  retry_due_ = true;
  maybe_write();
  maybe_finish_close();
}

void EventLog::maybe_finish_close() {
  // A retiring file's close in flight too: the destructor must not close its number again.
  if (!closing_ || !on_closed_ || write_in_flight_ || opening_ || sync_in_flight_ || retiring_fd_ >= 0) return;
  const bool unwritten = writing_done_ < writing_.size() || !pending_.empty();
  if (unwritten) {
    if (healthy() || !close_retried_) {
      close_retried_ = !healthy();
      retry_due_ = true;
      maybe_write();
      return;
    }
    // The disk still refuses: what is left is lost, and counted.
    counters_.events_dropped.add(writing_lines_ + pending_lines_);
    writing_.clear();
    writing_done_ = 0;
    writing_lines_ = 0;
    pending_.clear();
    pending_lines_ = 0;
  }
  if (unsynced_bytes_ > 0 && fd_ >= 0) {
    sync_in_flight_ = true;
    unsynced_bytes_ = 0;
    sync_started_ns_ = clock_.monotonic_ns();
    io_.sync_data(fd_, *this, kFinalSync);
    return;
  }
  std::function<void()> done = std::move(on_closed_);
  on_closed_ = nullptr;
  done();
}

}  // namespace tracking::events
