#include "runtime/answer_gate.h"

#include "runtime/check.h"

namespace runtime {

AnswerGate::AnswerGate(CoreChannel& channel, const LineLog& log, FileIo& io)
    : channel_(channel), log_(log), io_(io), held_(size_t{channel.cores()} * channel.queue_capacity()) {
  io_.add_loop_hook(*this);
}

AnswerGate::~AnswerGate() { io_.remove_loop_hook(*this); }

bool AnswerGate::passed(uint64_t lines) const { return log_.lines_in_kernel() >= lines || !log_.healthy(); }

void AnswerGate::post(uint32_t to_core, const Message& message) {
  const uint64_t lines = log_.lines_appended();
  // In order behind any held one: answers of one core leave in the order they were made.
  if (held_.empty() && passed(lines)) {
    post_now(to_core, message);
    return;
  }
  held_.push(lines, Answer{to_core, message});
}

void AnswerGate::release() {
  held_.release([this](uint64_t lines) { return passed(lines); },
                [this](const Answer& a) { post_now(a.to_core, a.message); });
}

void AnswerGate::post_now(uint32_t to_core, const Message& message) {
  // The queue budget keeps room for every answer (queue_budget.h): a refusal here is a
  // broken invariant, not a load condition.
  DECISIOND_CHECK_MSG(channel_.post(to_core, message), "a cross-core answer found its queue home full");
}

}  // namespace runtime
