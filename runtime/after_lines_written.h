#pragma once
// Work held until a log's lines are in the kernel (docs/events.md "Writing"): a reply that
// acknowledges a line leaves only once every line appended before it has been written (a
// LineLog write completed), so that a kill -9 can never take a line whose reply a client
// received. The waiters are told in the order they waited. A log whose disk refuses holds
// its lines in memory while requests are still served (its documented exception): waiters
// are then told at once.
//
// Per core, single-threaded; at most `capacity` waiting (checked: the caller bounds them).
#include <cstdint>
#include <vector>

#include "runtime/file_io.h"
#include "runtime/line_log.h"

namespace runtime {

class LinesWrittenWaiter {
 public:
  virtual ~LinesWrittenWaiter() = default;
  virtual void lines_written() = 0;
};

class AfterLinesWritten final : private LoopHook {
 public:
  // Registers with io's loop hooks; log outlives it.
  AfterLinesWritten(const LineLog& log, FileIo& io, size_t capacity);
  ~AfterLinesWritten() override;
  AfterLinesWritten(const AfterLinesWritten&) = delete;
  AfterLinesWritten& operator=(const AfterLinesWritten&) = delete;

  // Holds waiter until every line appended so far is written, and tells it from a later
  // loop turn (true). False when there is nothing to wait for (the disk refuses): the
  // caller goes on now, and waiter is not told.
  [[nodiscard]] bool hold(LinesWrittenWaiter& waiter);
  // The same for a mark taken earlier (lines_appended() then): told from a later loop
  // turn once passed(mark), or at once from that turn if the disk refuses.
  void hold_until(uint64_t mark, LinesWrittenWaiter& waiter);
  // Lines appended so far: a mark to wait for.
  uint64_t mark() const { return log_.lines_appended(); }
  // Every line up to mark is written, or the disk refuses and nothing is waited for.
  bool passed(uint64_t mark) const { return log_.lines_in_kernel() >= mark || !log_.healthy(); }
  size_t waiting() const { return count_; }

 private:
  struct Held {
    uint64_t lines = 0;
    LinesWrittenWaiter* waiter = nullptr;
  };
  void before_wait() override;

  const LineLog& log_;
  FileIo& io_;
  std::vector<Held> ring_;
  size_t head_ = 0;
  size_t count_ = 0;
};

}  // namespace runtime
