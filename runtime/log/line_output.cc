#include "runtime/log/line_output.h"

#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "runtime/log/core_lines.h"

namespace runtime::log {

namespace {

int64_t wall_now_ms() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

}  // namespace

CoreCounter& LogCounters::written(Level level) {
  switch (level) {
    case Level::kError: return written_error;
    case Level::kWarn: return written_warn;
    case Level::kInfo: return written_info;
    case Level::kDebug: break;
  }
  return written_debug;
}

LineOutput& LineOutput::instance() {
  // Never destroyed: a library thread may still say something while the process exits.
  static LineOutput* const kOutput = new LineOutput();
  return *kOutput;
}

int64_t LineOutput::now_ms() const {
  int64_t (*const clock)() = now_ms_.load(std::memory_order_relaxed);
  return clock != nullptr ? clock() : wall_now_ms();
}

void LineOutput::write_to(int fd) {
  std::lock_guard lock(mutex_);
  fd_ = fd;
}

void LineOutput::use_clock(int64_t (*now_ms)()) { now_ms_.store(now_ms, std::memory_order_relaxed); }

void LineOutput::write_now(const LineHead& head, TemplateKey key, std::string_view message) {
  std::lock_guard lock(mutex_);
  const int64_t now = now_ms();
  drain_locked(now);
  add_locked(head, key, message, 0, now);
  flush_locked();
}

void LineOutput::drain() {
  std::lock_guard lock(mutex_);
  drain_locked(now_ms());
  flush_locked();
}

void LineOutput::finish() {
  std::lock_guard lock(mutex_);
  const int64_t now = now_ms();
  drain_locked(now);
  end_windows_locked(now, /*everything=*/true);
  flush_locked();
}

std::optional<int64_t> LineOutput::next_summary_ms() {
  std::lock_guard lock(mutex_);
  return limit_.next_summary_ms();
}

void LineOutput::drain_locked(int64_t now_ms) {
  end_windows_locked(now_ms, false);
  QueuedLine line;
  for_each_core_lines([&](CoreLines& lines) {
    while (lines.take(line)) {
      const bool cut = line.formatted_bytes >= kQueuedMessageBytes;
      const std::string_view message(line.message, cut ? kQueuedMessageBytes - 1 : line.formatted_bytes);
      add_locked({line.wall_ms, line.level, line.component, static_cast<int32_t>(line.core)},
                 {line.component, line.format}, message, cut ? line.formatted_bytes : 0, now_ms);
    }
  });
}

void LineOutput::end_windows_locked(int64_t now_ms, bool everything) {
  for (const HeldBack& held : limit_.end_windows(now_ms, everything)) {
    const LineField fields[] = {{"suppressed", held.lines}};
    const std::string message =
        std::to_string(held.lines) + " similar lines suppressed; the last: " + held.last_message;
    append_locked({held.window_end_ms, held.level, held.component, -1}, fields, message);
  }
}

void LineOutput::add_locked(const LineHead& head, TemplateKey key, std::string_view message, uint64_t cut_at,
                            int64_t now_ms) {
  if (!limit_.admit(key, head.level, message, now_ms)) {
    counters_.held_back.add();
    return;
  }
  if (cut_at > 0) {
    const LineField fields[] = {{"cut", cut_at}};
    append_locked(head, fields, message);
  } else {
    append_locked(head, {}, message);
  }
}

void LineOutput::append_locked(const LineHead& head, std::span<const LineField> fields, std::string_view message) {
  const size_t before = batch_.size();
  batch_.resize(before + kHeadBytes + 32 * fields.size() + kMaxEscapeGrowth * message.size());
  LineText text(batch_.data() + before, batch_.size() - before);
  append_line(text, head, fields, message);
  batch_.resize(before + text.view().size());
  counters_.written(head.level).add();
}

void LineOutput::flush_locked() {
  size_t at = 0;
  while (at < batch_.size()) {
    const ssize_t n = ::write(fd_, batch_.data() + at, batch_.size() - at);
    if (n > 0) {
      at += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && errno == EAGAIN) {
      // A descriptor someone made non-blocking: wait for room, as a blocking write would.
      pollfd p{fd_, POLLOUT, 0};
      ::poll(&p, 1, 100);
    } else {
      break;  // stderr closed or failing: nothing to tell it with; the lines are lost
    }
  }
  batch_.clear();
  // A refused catalog's line lists every error: its buffer is not kept for the next line.
  if (batch_.capacity() > (size_t{1} << 20)) batch_.shrink_to_fit();
}

}  // namespace runtime::log
