#pragma once
// Each reactor's queue of log lines: the core formats a line into a slot and goes on; the
// writer thread (writer_thread.h) takes it and writes it. A core never waits for a write,
// a lock or another thread: a full queue drops the line and counts it
// (decisiond_log_lines_dropped_total), which a flood of lines at a stuck stderr shows.
#include <cstddef>
#include <cstdint>

#include "runtime/core_counter.h"
#include "runtime/log/level.h"
#include "runtime/spsc_queue.h"

namespace runtime::log {

// A queued message is cut past this (a reactor's lines are one event each: a state change,
// a refusal and its reason); the line then carries cut=<bytes formatted>.
inline constexpr size_t kQueuedMessageBytes = 992;
// Per core: lines said faster than the writer takes them, beyond this, are dropped.
inline constexpr uint32_t kQueuedLinesPerCore = 128;

struct QueuedLine {
  int64_t wall_ms = 0;
  const char* component = nullptr;
  const char* format = nullptr;  // the template: which lines are alike (repeat_limit.h)
  Level level = Level::kInfo;
  uint32_t core = 0;
  uint32_t formatted_bytes = 0;  // what vsnprintf made of it; past kQueuedMessageBytes - 1 it was cut
  char message[kQueuedMessageBytes];
};

// Written by the core alone, read by any scrape.
struct CoreLogCounters {
  CoreCounter dropped;
};

class CoreLines {
 public:
  explicit CoreLines(uint32_t core, uint32_t capacity = kQueuedLinesPerCore) : core_(core), queue_(capacity) {}

  // The core's side: false (and counted) when the queue is full.
  bool offer(const QueuedLine& line);
  // The consumer's side (one at a time: the output's lock, line_output.h).
  bool take(QueuedLine& line);

  uint32_t core() const { return core_; }
  const CoreLogCounters& counters() const { return counters_; }

 private:
  friend class CoreLogScope;
  uint32_t core_;
  bool in_use_ = false;
  SpscQueue<QueuedLine> queue_;
  CoreLogCounters counters_;
};

// From construction to destruction, the lines this thread says are queued on a CoreLines
// of its own: CoreGroup makes one at the start of each reactor thread. The queue outlives
// the thread (its last lines are still written) and is handed to the next thread that
// runs core `core`.
class CoreLogScope {
 public:
  explicit CoreLogScope(uint32_t core);
  ~CoreLogScope();
  CoreLogScope(const CoreLogScope&) = delete;
  CoreLogScope& operator=(const CoreLogScope&) = delete;

 private:
  CoreLines* lines_;
};

// This thread's queue, or nullptr on a thread that is not a reactor's.
CoreLines* this_thread_lines();

// Every queue made so far, for the consumer (in use or not: a stopped core's last lines).
template <typename Visit>
void for_each_core_lines(Visit visit);

namespace detail {
inline constexpr size_t kMaxCoreLines = 4096;
CoreLines* core_lines_at(size_t index);
size_t core_lines_made();
}  // namespace detail

template <typename Visit>
void for_each_core_lines(Visit visit) {
  const size_t made = detail::core_lines_made();
  for (size_t i = 0; i < made; ++i) visit(*detail::core_lines_at(i));
}

}  // namespace runtime::log
