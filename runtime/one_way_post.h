#pragma once
// A one-way post: a message to a core that wants no answer (a core's drain notice, a
// snapshot step a core posts to itself, the main thread's catalog publications, upload
// answers and shutdown). The one way to send one, beside cross-core asks
// (cross_core_asks.h), which pair every message with its answer. Neither ever loses a
// message to a full queue, sleeps in a loop, or lets a refusal pass unseen.
//
//   from a core         Reactor::post_one_way (CoreChannel::post_one_way above runtime/)
//   from the main thread CoreGroup::post_one_way
//
// Bound. Between two cores, one-way messages have kQueueSlotsForOneWay slots of each
// queue (queue_budget.h), beside the asks' 2 x kPerPeer per kind; together they fill the
// queue exactly, so no answer ever finds its queue full. A core keeps to that share by
// itself: it remembers the queue position of each one-way message it put in a queue and
// counts those the receiver has not taken yet (SpscQueue::taken), so the receiver counts
// nothing. The main thread's queue to each core carries nothing else: its share is all of
// it.
//
// Refusal. A core never blocks: a one-way message that finds its share full (or its queue,
// which the budget says cannot happen) waits in the sending core's outbox (OneWayPosts),
// behind any earlier one kept for the same core, and is posted again at the top of each of
// the sender's loop turns, so within one tick (100 ms) of the receiver making room. Per
// receiver the order of one-way messages is the order they were posted. The main thread
// may block: it waits on an eventfd that the receiving core writes once it has taken
// messages from that queue (Mailbox::control_queue_taken), never a sleep. Both are counted
// (one_way_counters.h: decisiond_one_way_posts_kept_total,
// decisiond_one_way_posts_waited_total, by core).
//
// Order against asks: asks and answers go straight into the queue, so one may overtake a
// one-way message kept in the outbox, never one that was posted after it.
#include <cstdint>
#include <deque>
#include <vector>

#include "runtime/mailbox.h"
#include "runtime/message.h"
#include "runtime/one_way_counters.h"
#include "runtime/queue_budget.h"

namespace runtime {

// A core's sending side of one-way posts: its share of each queue and its outbox. Touched
// by its core only.
class OneWayPosts {
 public:
  // A bound on the outbox: each kind of one-way message has a few in flight at most (a
  // drain notice per core), so a core that keeps this many posts faster than its receivers
  // take, forever: a broken invariant (checked).
  static constexpr uint32_t kMaxKept = 4096;

  OneWayPosts(Mailbox& mailbox, uint32_t from_core);
  OneWayPosts(const OneWayPosts&) = delete;
  OneWayPosts& operator=(const OneWayPosts&) = delete;

  // True: message is in the queue to to_core now (the caller wakes that core). False: it
  // is kept, counted, and posted by post_kept.
  [[nodiscard]] bool post(uint32_t to_core, const Message& message);

  // Posts kept messages, oldest first for each core, while their shares have room; calls
  // posted(core) once for each core that got at least one (to wake it). At the top of each
  // loop turn of the sending core, when keeps_any().
  template <typename Posted>
  void post_kept(Posted&& posted) {
    for (uint32_t to = 0; to < kept_.size(); ++to) {
      std::deque<Message>& waiting = kept_[to];
      bool any = false;
      while (!waiting.empty() && push(to, waiting.front())) {
        waiting.pop_front();
        --kept_count_;
        any = true;
      }
      if (any) posted(to);
    }
  }

  bool keeps_any() const { return kept_count_ != 0; }
  uint32_t kept() const { return kept_count_; }
  // The one-way messages this core has in the queue to to_core that its receiver has not
  // taken yet (at most kQueueSlotsForOneWay).
  uint32_t in_queue(uint32_t to_core);

 private:
  // Positions (SpscQueue::pushed) of this core's one-way messages in one queue, oldest
  // first, as a ring.
  struct Share {
    uint64_t positions[kQueueSlotsForOneWay] = {};
    uint32_t first = 0;
    uint32_t count = 0;
  };

  // Into the queue when the share and the queue have room: whether it went.
  bool push(uint32_t to_core, const Message& message);
  // Whether the share has room, forgetting taken positions when it looks full.
  bool share_has_room(uint32_t to_core);
  // Forgets the positions of messages the receiver has taken.
  void forget_taken(uint32_t to_core);

  Mailbox& mailbox_;
  const uint32_t from_core_;
  OneWayCounters& counters_;
  std::vector<Share> shares_;               // by receiving core
  std::vector<std::deque<Message>> kept_;  // by receiving core: the outbox
  uint32_t kept_count_ = 0;
};

}  // namespace runtime
