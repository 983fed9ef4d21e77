#pragma once
// Where every line leaves the process: stderr, one write(2) per batch, behind one lock that
// only threads other than the reactors take (the writer thread, and the main thread and
// library threads that say something). The lock also makes its holder the one consumer of
// the cores' queues: a line said on such a thread is written after every line the cores had
// queued before it, so start-up and shutdown lines keep their order. The rate limit
// (repeat_limit.h) is applied here, to lines of every thread alike.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/core_counter.h"
#include "runtime/log/level.h"
#include "runtime/log/logfmt.h"
#include "runtime/log/repeat_limit.h"

namespace runtime::log {

// Process-wide, written under the output's lock, read by any scrape.
struct LogCounters {
  // Lines written, by level (summaries included).
  CoreCounter written_error;
  CoreCounter written_warn;
  CoreCounter written_info;
  CoreCounter written_debug;
  CoreCounter held_back;  // lines the rate limit held back

  CoreCounter& written(Level level);
};

class LineOutput {
 public:
  static LineOutput& instance();

  // A line said on a thread that is not a reactor (or by one about to abort): written now,
  // after what the cores had queued.
  void write_now(const LineHead& head, TemplateKey key, std::string_view message);
  // The writer thread's turn: what the cores queued, and the summaries of windows now over.
  void drain();
  // At exit: drain, then every window ends with its summary.
  void finish();
  // When the next summary is due (the writer sleeps until then at most).
  std::optional<int64_t> next_summary_ms();

  // Tests write elsewhere (a pipe) and step the clock of the lines and the rate limit.
  void write_to(int fd);
  void use_clock(int64_t (*now_ms)());
  // Wall-clock milliseconds, any thread: a line's ts, the rate limit's windows.
  int64_t now_ms() const;

  const LogCounters& counters() const { return counters_; }

 private:
  LineOutput() = default;
  void drain_locked(int64_t now_ms);
  void end_windows_locked(int64_t now_ms, bool everything);
  void add_locked(const LineHead& head, TemplateKey key, std::string_view message, uint64_t cut_at, int64_t now_ms);
  void append_locked(const LineHead& head, std::span<const LineField> fields, std::string_view message);
  void flush_locked();

  std::mutex mutex_;
  RepeatLimit limit_;
  std::string batch_;
  int fd_ = 2;
  std::atomic<int64_t (*)()> now_ms_{nullptr};
  LogCounters counters_;
};

}  // namespace runtime::log
