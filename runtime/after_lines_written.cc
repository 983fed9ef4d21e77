#include "runtime/after_lines_written.h"

#include "runtime/check.h"

namespace runtime {

AfterLinesWritten::AfterLinesWritten(const LineLog& log, FileIo& io, size_t capacity)
    : log_(log), io_(io), ring_(capacity) {
  io_.add_loop_hook(*this);
}

AfterLinesWritten::~AfterLinesWritten() { io_.remove_loop_hook(*this); }

bool AfterLinesWritten::hold(LinesWrittenWaiter& waiter) {
  if (!log_.healthy()) return false;
  hold_until(log_.lines_appended(), waiter);
  return true;
}

void AfterLinesWritten::hold_until(uint64_t mark, LinesWrittenWaiter& waiter) {
  DECISIOND_CHECK_MSG(count_ < ring_.size(), "after lines written: more waiting than its bound");
  // Told from a loop hook even when written already: never inside the caller's own call.
  // Marks may come out of order (a mark taken earlier): a later one behind an earlier one
  // waits for it, never the reverse.
  ring_[(head_ + count_) % ring_.size()] = Held{mark, &waiter};
  ++count_;
}

void AfterLinesWritten::before_wait() {
  while (count_ > 0 && passed(ring_[head_].lines)) {
    LinesWrittenWaiter* waiter = ring_[head_].waiter;
    head_ = (head_ + 1) % ring_.size();
    --count_;
    waiter->lines_written();  // may wait again: the ring's state is already consistent
  }
}

}  // namespace runtime
