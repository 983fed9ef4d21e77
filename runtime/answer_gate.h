#pragma once
// Cross-core answers held until their lines are in the kernel (docs/events.md
// "Durability"). A core that serves another core's ask (a decision, an impression) writes
// its lines to its own log; the asking core sends the client's reply when the answer comes
// home. So that a reply never acknowledges a line still in user memory (lost with the process
// on kill -9), the serving core posts each answer only once every line it had appended
// before it has been written: a LineLog write completed, before the reply, on whichever core
// it leaves. A log whose disk refuses holds its lines in memory while requests are still
// served (its documented exception): answers then go at once.
//
// Per core, single-threaded. The held answers are bounded by the asks other cores may have
// out to this one (their per-peer bounds fit the message queues: queue_budget.h), so the
// ring holds cores x queue capacity and never overflows (checked).
#include <cstdint>

#include "runtime/core_channel.h"
#include "runtime/file_io.h"
#include "runtime/line_log.h"
#include "runtime/marked_ring.h"
#include "runtime/message.h"

namespace runtime {

class AnswerGate final : private LoopHook {
 public:
  // Registers with io's loop hooks; log and channel outlive the gate.
  AnswerGate(CoreChannel& channel, const LineLog& log, FileIo& io);
  ~AnswerGate() override;
  AnswerGate(const AnswerGate&) = delete;
  AnswerGate& operator=(const AnswerGate&) = delete;

  // Posts message to to_core now when nothing appended waits for a write, else holds it.
  void post(uint32_t to_core, const Message& message);
  size_t held() const { return held_.size(); }

 private:
  struct Answer {
    uint32_t to_core = 0;
    Message message;
  };

  void before_wait() override { release(); }
  void release();
  bool passed(uint64_t lines) const;
  void post_now(uint32_t to_core, const Message& message);

  CoreChannel& channel_;
  const LineLog& log_;
  FileIo& io_;
  // Each held with the lines appended when it was made: released once they are written.
  MarkedRing<Answer> held_;
};

}  // namespace runtime
