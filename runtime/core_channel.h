#pragma once
// What a handler above the runtime may do with other cores: post a message to one of them.
// The reactor is the one implementation (reactor_channel.h); code above it (decision,
// tracking) sees only this, never the ring, and uses it through CrossCoreAsks
// (cross_core_asks.h), which owns the bounds that make posting safe, or as a one-way post
// (one_way_post.h), which is never refused.
//
// The rule of the house: a message carries values, or a pointer to an object that the two
// cores agree is handed over with it. While one core holds such an object the other does
// not touch it; the object goes back by another message.
#include <cstdint>

#include "runtime/check.h"
#include "runtime/mailbox.h"
#include "runtime/message.h"
#include "runtime/queue_budget.h"

namespace runtime {

class AnswerGate;

class CoreChannel {
 public:
  virtual ~CoreChannel() = default;
  virtual uint32_t core() const = 0;
  virtual uint32_t cores() const = 0;
  // Queues message for to_core (possibly this one); false when that queue is full.
  [[nodiscard]] virtual bool post(uint32_t to_core, const Message& message) = 0;
  // A message that wants no answer (one_way_post.h): queued now, or kept by this core and
  // posted on a later loop turn, in order. Never refused.
  virtual void post_one_way(uint32_t to_core, const Message& message) = 0;
  // Where answers of asks served here go through (answer_gate.h): null, posted at once.
  void set_answer_gate(AnswerGate* gate) { answer_gate_ = gate; }
  AnswerGate* answer_gate() const { return answer_gate_; }
  // Slots in each queue between two cores.
  virtual uint32_t queue_capacity() const { return Mailbox::kDefaultQueueCapacity; }

  // Each kind of ask takes its share of every queue at start (runtime/queue_budget.h);
  // shares that overflow the queue would let an answer find it full, so they stop the
  // process before it serves.
  void reserve_queue_slots(uint32_t slots) {
    queue_slots_reserved_ += slots;
    DECISIOND_CHECK_MSG(queue_slots_reserved_ <= queue_capacity(),
                        "the cross-core asks' per-peer bounds overflow the message queue");
  }
  uint32_t queue_slots_reserved() const { return queue_slots_reserved_; }

 private:
  uint32_t queue_slots_reserved_ = kQueueSlotsForOneWay;
  AnswerGate* answer_gate_ = nullptr;
};

}  // namespace runtime
