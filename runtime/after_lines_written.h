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

#include "runtime/file_io.h"
#include "runtime/line_log.h"
#include "runtime/marked_ring.h"

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

  // Holds waiter until passed(mark) (a mark taken with mark(), then or earlier), and tells
  // it from a later loop turn, never inside this call.
  void hold_until(uint64_t mark, LinesWrittenWaiter& waiter);
  // Lines appended so far: a mark to wait for.
  uint64_t mark() const { return log_.lines_appended(); }
  // Every line up to mark is written, or the disk refuses and nothing is waited for.
  bool passed(uint64_t mark) const { return log_.lines_in_kernel() >= mark || !log_.healthy(); }
  size_t waiting() const { return waiting_.size(); }

 private:
  void before_wait() override;

  const LineLog& log_;
  FileIo& io_;
  MarkedRing<LinesWrittenWaiter*> waiting_;
};

}  // namespace runtime
