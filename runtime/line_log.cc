#include "runtime/line_log.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace runtime {

namespace {
constexpr int kOpenFlags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
constexpr unsigned kFileMode = 0640;
// Reserved once so that a warm log appends without allocating.
constexpr size_t kInitialBufferBytes = 256 << 10;
}  // namespace

LineLog::LineLog(FileIo& io, TimerWheel& timers, const Clock& clock, LineLogSettings settings)
    : io_(io), timers_(timers), clock_(clock), settings_(std::move(settings)) {
  pending_.reserve(kInitialBufferBytes);
  writing_.reserve(kInitialBufferBytes);
}

LineLog::~LineLog() {
  if (started_) {
    io_.remove_loop_hook(*this);
    timers_.cancel(*this);
  }
  // The loop has ended: plain system calls are fine here.
  if (fd_ >= 0) ::close(fd_);
  if (retiring_fd_ >= 0) ::close(retiring_fd_);
}

std::string LineLog::file_name(int64_t wall_ms) {
  char name[32];
  std::snprintf(name, sizeof(name), "%013lld.jsonl", static_cast<long long>(wall_ms));
  return name;
}

std::string LineLog::next_path() {
  // Strictly increasing within a run, even for two files opened in one millisecond.
  const int64_t now_ms = clock_.wall_ns() / 1'000'000;
  last_name_ms_ = now_ms > last_name_ms_ ? now_ms : last_name_ms_ + 1;
  return settings_.directory + "/" + file_name(last_name_ms_);
}

absl::Status LineLog::start() {
  std::error_code error;
  std::filesystem::create_directories(settings_.directory, error);
  std::string path;
  int refused = error ? error.value() : 0;
  // A name a previous run used (a clock stepped back) is skipped, never appended to.
  for (int attempt = 0; !error && attempt < 64 && fd_ < 0; ++attempt) {
    path = next_path();
    fd_ = ::open(path.c_str(), kOpenFlags, kFileMode);
    refused = fd_ >= 0 ? 0 : errno;
    if (fd_ < 0 && errno != EEXIST) break;
  }
  absl::Status status = absl::OkStatus();
  if (fd_ < 0) {
    status = absl::UnavailableError("cannot create log file " + (error ? settings_.directory : path) + ": " +
                                    std::strerror(refused != 0 ? refused : EIO));
    counters_.write_errors.add();
    set_healthy(false);
  } else {
    counters_.files_opened.add();
  }
  io_.add_loop_hook(*this);
  timers_.schedule(*this, settings_.flush_interval_ms);
  started_ = true;
  return status;
}

void LineLog::maybe_write() {
  if (write_in_flight_ || opening_ || !started_) return;
  if (fd_ < 0) {  // no file: the disk refused it; tried again when a retry is due
    if (!retry_due_) return;
    retry_due_ = false;
    if (closing_ && pending_.empty()) {
      maybe_finish_close();
      return;
    }
    std::error_code ignored;  // a plain mkdir, once per flush interval while no file is open
    std::filesystem::create_directories(settings_.directory, ignored);
    open_next_file();
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
  // While the previous file's fdatasync still runs, this one grows a little past the bound.
  if (file_offset_ >= settings_.file_bytes && retiring_fd_ < 0) {
    open_next_file();
    return;
  }
  writing_.clear();
  writing_done_ = 0;
  writing_.swap(pending_);
  writing_lines_ = pending_lines_;
  pending_lines_ = 0;
  submit_write();
}

void LineLog::submit_write() {
  write_in_flight_ = true;
  io_.write(fd_, writing_.data() + writing_done_, writing_.size() - writing_done_, file_offset_, *this, kWrite);
}

void LineLog::open_next_file() {
  opening_ = true;
  opening_path_ = next_path();
  io_.open(opening_path_.c_str(), kOpenFlags, kFileMode, *this, kOpen);
}

void LineLog::on_file_complete(uint8_t tag, int result) {
  switch (tag) {
    case kWrite: write_done(result); return;
    case kOpen: open_done(result); return;
    case kSync:
    case kFinalSync:
      sync_done(result);
      if (tag == kFinalSync) maybe_finish_close();
      return;
    case kRetireSync:
      if (result < 0) counters_.write_errors.add();
      io_.close(retiring_fd_, *this, kRetireClose);
      return;
    case kRetireClose:
      retiring_fd_ = -1;
      if (closing_) {
        maybe_finish_close();
      } else {
        maybe_write();
      }
      return;
    default: return;
  }
}

void LineLog::write_done(int result) {
  write_in_flight_ = false;
  if (result <= 0) {  // ENOSPC, EIO, EROFS...; keep the batch for a retry
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
  counters_.lines_written.add(writing_lines_);
  writing_lines_ = 0;
  counters_.pending_bytes.set(pending_.size());
  maybe_write();
}

void LineLog::open_done(int result) {
  opening_ = false;
  if (result < 0) {
    counters_.write_errors.add();
    set_healthy(false);
    if (closing_) maybe_finish_close();
    return;
  }
  counters_.files_opened.add();
  if (fd_ >= 0) {
    retiring_fd_ = fd_;  // synced, then closed, off the request path
    io_.sync_data(retiring_fd_, *this, kRetireSync);
  } else {
    if (pending_.empty()) set_healthy(true);
    retry_due_ = true;
  }
  fd_ = result;
  file_offset_ = 0;
  unsynced_bytes_ = 0;
  maybe_write();
}

void LineLog::on_expire() {
  timers_.schedule(*this, settings_.flush_interval_ms);
  if (!healthy()) retry_due_ = true;  // the loop hook retries
  if (unsynced_bytes_ > 0 && !sync_in_flight_ && fd_ >= 0) {
    sync_in_flight_ = true;
    unsynced_bytes_ = 0;
    io_.sync_data(fd_, *this, kSync);
  }
}

void LineLog::sync_done(int result) {
  sync_in_flight_ = false;
  if (result < 0) {
    counters_.write_errors.add();
    set_healthy(false);
    return;
  }
  counters_.syncs.add();
}

void LineLog::close(std::function<void()> done) {
  closing_ = true;
  on_closed_ = std::move(done);
  retry_due_ = true;
  maybe_write();
  maybe_finish_close();
}

void LineLog::maybe_finish_close() {
  if (!closing_ || !on_closed_ || write_in_flight_ || opening_ || sync_in_flight_ || retiring_fd_ >= 0) return;
  const bool unwritten = writing_done_ < writing_.size() || !pending_.empty();
  if (unwritten) {
    if (healthy() || !close_retried_) {
      close_retried_ = !healthy();
      retry_due_ = true;
      maybe_write();
      return;
    }
    counters_.lines_dropped.add(writing_lines_ + pending_lines_);
    writing_.clear();
    writing_done_ = 0;
    writing_lines_ = 0;
    pending_.clear();
    pending_lines_ = 0;
    counters_.pending_bytes.set(0);
  }
  if (unsynced_bytes_ > 0 && fd_ >= 0) {
    sync_in_flight_ = true;
    unsynced_bytes_ = 0;
    io_.sync_data(fd_, *this, kFinalSync);
    return;
  }
  std::function<void()> done = std::move(on_closed_);
  on_closed_ = nullptr;
  done();
}

}  // namespace runtime
