#include "runtime/answer_gate.h"

#include "runtime/check.h"

namespace runtime {

AnswerGate::AnswerGate(CoreChannel& channel, const LineLog& log, FileIo& io)
    : channel_(channel), log_(log), io_(io), ring_(size_t{channel.cores()} * channel.queue_capacity()) {
  io_.add_loop_hook(*this);
}

AnswerGate::~AnswerGate() { io_.remove_loop_hook(*this); }

bool AnswerGate::passed(uint64_t lines) const { return log_.lines_in_kernel() >= lines || !log_.healthy(); }

void AnswerGate::post(uint32_t to_core, const Message& message) {
  const uint64_t lines = log_.lines_appended();
  // In order behind any held one: answers of one core leave in the order they were made.
  if (count_ == 0 && passed(lines)) {
    post_now(to_core, message);
    return;
  }
  DECISIOND_CHECK_MSG(count_ < ring_.size(), "answer gate: more answers held than asks can be out");
  ring_[(head_ + count_) % ring_.size()] = Held{lines, to_core, message};
  ++count_;
}

void AnswerGate::release() {
  while (count_ > 0 && passed(ring_[head_].lines)) {
    const Held& h = ring_[head_];
    post_now(h.to_core, h.message);
    head_ = (head_ + 1) % ring_.size();
    --count_;
  }
}

void AnswerGate::post_now(uint32_t to_core, const Message& message) {
  // The queue budget keeps room for every answer (queue_budget.h): a refusal here is a
  // broken invariant, not a load condition.
  DECISIOND_CHECK_MSG(channel_.post(to_core, message), "a cross-core answer found its queue home full");
}

}  // namespace runtime
