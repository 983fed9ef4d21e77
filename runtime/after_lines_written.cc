#include "runtime/after_lines_written.h"

namespace runtime {

AfterLinesWritten::AfterLinesWritten(const LineLog& log, FileIo& io, size_t capacity)
    : log_(log), io_(io), waiting_(capacity) {
  io_.add_loop_hook(*this);
}

AfterLinesWritten::~AfterLinesWritten() { io_.remove_loop_hook(*this); }

void AfterLinesWritten::hold_until(uint64_t mark, LinesWrittenWaiter& waiter) {
  // Told from a loop hook even when written already: never inside the caller's own call.
  // Marks may come out of order (a mark taken earlier): a later one behind an earlier one
  // waits for it, never the reverse.
  waiting_.push(mark, &waiter);
}

void AfterLinesWritten::before_wait() {
  // A waiter may wait again from its call: the ring's state is consistent by then.
  waiting_.release([this](uint64_t mark) { return passed(mark); },
                   [](LinesWrittenWaiter* waiter) { waiter->lines_written(); });
}

}  // namespace runtime
