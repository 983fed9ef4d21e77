#include "runtime/line_log.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "runtime/check.h"

namespace runtime {

namespace {
constexpr int kOpenFlags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC;
constexpr unsigned kFileMode = 0640;
// Names tried at start before giving up (names a previous run left behind).
constexpr int kStartAttempts = 64;

// The file at path when it exists and is empty, opened for writing; -1 otherwise, with
// refused set when the open itself failed.
int open_if_empty(const std::string& path, int& refused) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    refused = errno;
    return -1;
  }
  struct stat st;
  if (::fstat(fd, &st) == 0 && st.st_size == 0) {
    refused = 0;
    return fd;
  }
  ::close(fd);
  return -1;
}
}  // namespace

LineLog::LineLog(FileIo& io, TimerWheel& timers, const Clock& clock, LineLogSettings settings,
                 LineLogCounterRefs counters)
    : LineLog(io, timers, clock, std::move(settings), counters, static_cast<LineLogFiles*>(nullptr)) {}

LineLog::LineLog(FileIo& io, TimerWheel& timers, const Clock& clock, LineLogSettings settings,
                 LineLogCounterRefs counters, LineLogFiles& files)
    : LineLog(io, timers, clock, std::move(settings), counters, &files) {}

LineLog::LineLog(FileIo& io, TimerWheel& timers, const Clock& clock, LineLogSettings settings,
                 LineLogCounterRefs counters, LineLogFiles* files)
    : io_(io),
      timers_(timers),
      clock_(clock),
      settings_(std::move(settings)),
      counters_(counters),
      wall_clock_files_(clock),
      files_(files != nullptr ? *files : static_cast<LineLogFiles&>(wall_clock_files_)),
      buffers_(settings_.reserve_bytes) {}

LineLog::~LineLog() {
  if (started_) {
    io_.remove_loop_hook(*this);
    if (!settings_.to_nowhere) timers_.cancel(*this);
  }
  // The loop has ended: plain system calls are fine here.
  if (fd_ >= 0) ::close(fd_);
  if (retiring_fd_ >= 0) ::close(retiring_fd_);
}

absl::Status LineLog::start() {
  if (settings_.to_nowhere) {
    io_.add_loop_hook(*this);
    started_ = true;
    return absl::OkStatus();
  }
  std::error_code error;
  std::filesystem::create_directories(settings_.directory, error);
  std::string path;
  int refused = error ? error.value() : 0;
  if (!error) fd_ = open_first_file(path, refused);
  absl::Status status = absl::OkStatus();
  if (fd_ < 0) {
    // The disk refuses (read-only, full, I/O error): the core serves all the same, as it
    // does when the disk refuses later. Lines collect in memory, the log is unhealthy, and
    // the open is tried again every flush interval.
    status = absl::UnavailableError("cannot create " + settings_.name + " file " +
                                    (error ? settings_.directory : path) + ": " +
                                    std::strerror(refused != 0 ? refused : EIO));
    counters_.write_errors.add();
    set_healthy(false);
  } else {
    counters_.files_opened.add();
    files_.file_opened();
  }
  io_.add_loop_hook(*this);
  timers_.schedule(*this, settings_.flush_interval_ms);
  started_ = true;
  return status;
}

int LineLog::open_first_file(std::string& path, int& refused) {
  // A name a previous run used is never appended after (a crash may have cut its last
  // line): taken over when empty if the files allow it, else passed over for another.
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    path = settings_.directory + "/" + files_.next_name(buffers_.pending_lines() > 0);
    int fd = ::open(path.c_str(), kOpenFlags, kFileMode);
    refused = fd >= 0 ? 0 : errno;
    if (fd >= 0 || refused != EEXIST) return fd;
    if (files_.reuse_empty_file() && (fd = open_if_empty(path, refused)) >= 0) return fd;
    files_.name_taken();
  }
  return -1;
}

void LineLog::maybe_write() {
  if (!started_) return;
  if (settings_.to_nowhere) {
    discard_pending();
    return;
  }
  if (fd_ < 0) {  // no file: the disk refused it; tried again when a retry is due
    if (opening_ || !retry_due_) return;
    retry_due_ = false;
    if (closing_ && buffers_.pending_lines() == 0) {
      maybe_finish_close();
      return;
    }
    // A plain mkdir on the loop, once per flush interval and only while no file is open:
    // the directory may be missing when the disk refused it at start.
    std::error_code ignored;
    std::filesystem::create_directories(settings_.directory, ignored);
    open_next_file();
    return;
  }
  if (!healthy() && !retry_due_) return;
  retry_due_ = false;
  // Refused batches first, each at its own offset. While the disk refuses, new lines wait
  // for one of them to land rather than pile more writes on it.
  if (retry_held() && !healthy()) return;
  if (buffers_.pending_lines() == 0) {
    maybe_finish_close();
    return;
  }
  if (rotate()) return;
  if (buffers_.full()) {  // the disk has stalled: the lines wait for a batch to land
    counters_.writes_waited.add();
    return;
  }
  const uint32_t slot = buffers_.take_pending(fd_, file_offset_);
  file_offset_ += buffers_.batch(slot).bytes.size();
  submit_write(slot);
}

// Resubmits every batch kept after a refusal. True when there was one.
bool LineLog::retry_held() {
  bool any = false;
  buffers_.for_each_held([&](uint32_t slot) {
    submit_write(slot);
    any = true;
  });
  return any;
}

// Opens the next file once the current one is full. True when the turn's lines must wait
// for it (a log whose names bound the lines before them); otherwise they go on to the
// current file while the open runs.
bool LineLog::rotate() {
  const bool holds = files_.holds_lines_while_opening();
  if (opening_) return holds;
  // While the previous file still retires, this one grows past the bound a little rather
  // than have a second file retiring.
  if (file_offset_ < settings_.file_bytes || retiring_fd_ >= 0) return false;
  if (!holds) {
    open_next_file();
    return false;
  }
  // Between writes: a reader that sees the next file knows this one is whole.
  if (!buffers_.unfinished_on(fd_)) open_next_file();
  return true;
}

void LineLog::discard_pending() {
  if (buffers_.pending_lines() > 0) {
    counters_.bytes_written.add(buffers_.pending_bytes());
    counters_.lines_written.add(buffers_.skip_pending());
    counters_.pending_bytes.set(0);
  }
  maybe_finish_close();
}

void LineLog::submit_write(uint32_t slot) {
  buffers_.submitted(slot);
  counters_.writes.add();
  const LineBuffers::Batch& b = buffers_.batch(slot);
  io_.write(b.fd, b.unwritten_data(), b.unwritten_bytes(), b.unwritten_offset(), *this,
            static_cast<uint8_t>(kWrite + slot));
}

void LineLog::open_next_file() {
  opening_ = true;
  opening_path_ = settings_.directory + "/" + files_.next_name(buffers_.pending_lines() > 0);
  io_.open(opening_path_.c_str(), kOpenFlags, kFileMode, *this, kOpen);
}

void LineLog::on_file_complete(uint8_t tag, int result) {
  if (tag >= kWrite) {
    write_done(static_cast<uint32_t>(tag - kWrite), result);
    return;
  }
  switch (tag) {
    case kOpen: open_done(result); return;
    case kSync:
    case kFinalSync:
      sync_done(result);
      if (tag == kFinalSync) maybe_finish_close();
      return;
    case kRetireSync:
    case kRetireClose: retired(tag, result); return;
    default: DECISIOND_CHECK_MSG(false, "line log: a completion it did not submit");
  }
}

void LineLog::write_done(uint32_t slot, int result) {
  if (result <= 0) {
    // ENOSPC, EIO, EROFS...; 0 would be a write that cannot progress. Keep the batch, and
    // its offset: the retry fills the same place.
    buffers_.refused(slot);
    counters_.write_errors.add();
    set_healthy(false);
    if (closing_) maybe_finish_close();
    return;
  }
  const int fd = buffers_.batch(slot).fd;
  const uint64_t lines = buffers_.written(slot, static_cast<size_t>(result));
  if (fd == fd_) unsynced_bytes_ += static_cast<uint64_t>(result);
  counters_.bytes_written.add(static_cast<uint64_t>(result));
  set_healthy(true);
  if (lines == 0) {  // short write: the rest, at once, where it belongs
    submit_write(slot);
    return;
  }
  counters_.lines_written.add(lines);
  counters_.pending_bytes.set(buffers_.held_bytes());
  if (fd == retiring_fd_) maybe_retire();
  if (closing_) maybe_finish_close();
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
  files_.file_opened();
  const bool first = fd_ < 0;
  if (!first) {
    // The previous file keeps its data: its writes land, then it is synced and closed, off
    // the request path. (No rotation starts while one is retiring: rotate() waits for it.)
    retiring_fd_ = fd_;
  } else {
    // The first file, which the disk refused at start: held lines go out at once, and with
    // none held the log is healthy again now.
    if (buffers_.pending_lines() == 0) set_healthy(true);
    retry_due_ = true;
  }
  fd_ = result;
  file_offset_ = 0;
  unsynced_bytes_ = 0;
  if (!first) maybe_retire();
  maybe_write();
}

void LineLog::maybe_retire() {
  if (retiring_fd_ < 0 || retire_syncing_ || buffers_.unfinished_on(retiring_fd_)) return;
  retire_syncing_ = true;
  io_.sync_data(retiring_fd_, *this, kRetireSync);
}

void LineLog::retired(uint8_t tag, int result) {
  if (tag == kRetireSync) {
    // Whatever the sync said, the descriptor goes; a failed sync was counted.
    if (result < 0) counters_.write_errors.add();
    io_.close(retiring_fd_, *this, kRetireClose);
    return;
  }
  retiring_fd_ = -1;
  retire_syncing_ = false;
  // A rotation, or the end of a close, may have waited for this one. (One call: the
  // close's callback may end the log.)
  if (closing_) {
    maybe_finish_close();
  } else {
    maybe_write();
  }
}

void LineLog::on_expire() {
  timers_.schedule(*this, settings_.flush_interval_ms);
  if (!healthy()) retry_due_ = true;  // the loop hook retries
  if (unsynced_bytes_ > 0 && !sync_in_flight_ && fd_ >= 0) start_sync(kSync);
}

void LineLog::start_sync(Tag tag) {
  sync_in_flight_ = true;
  unsynced_bytes_ = 0;
  sync_started_ns_ = clock_.monotonic_ns();
  io_.sync_data(fd_, *this, tag);
}

void LineLog::sync_done(int result) {
  sync_in_flight_ = false;
  if (result < 0) {
    counters_.write_errors.add();
    set_healthy(false);
    return;
  }
  counters_.syncs.add();
  files_.synced(clock_.monotonic_ns() - sync_started_ns_);
}

void LineLog::close(std::function<void()> done) {
  DECISIOND_CHECK_MSG(!closing_, "line log: closed twice");
  closing_ = true;
  on_closed_ = std::move(done);
  retry_due_ = true;
  maybe_write();
  maybe_finish_close();
}

void LineLog::maybe_finish_close() {
  // A retiring file's close in flight too: the destructor must not close its number again.
  if (!closing_ || !on_closed_ || buffers_.any_in_flight() || opening_ || sync_in_flight_ || retiring_fd_ >= 0) return;
  if (buffers_.held_bytes() > 0) {
    if (healthy() || !close_retried_) {
      close_retried_ = !healthy();
      retry_due_ = true;
      maybe_write();
      return;
    }
    // The disk still refuses: what is left is lost, and counted.
    counters_.lines_dropped.add(buffers_.discard());
    counters_.pending_bytes.set(0);
  }
  if (unsynced_bytes_ > 0 && fd_ >= 0) {
    start_sync(kFinalSync);
    return;
  }
  closed_ = true;
  std::function<void()> done = std::move(on_closed_);
  on_closed_ = nullptr;
  done();
}

}  // namespace runtime
