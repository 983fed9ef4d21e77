#include "runtime/one_way_post.h"

#include "runtime/check.h"

namespace runtime {

OneWayPosts::OneWayPosts(Mailbox& mailbox, uint32_t from_core)
    : mailbox_(mailbox),
      from_core_(from_core),
      counters_(mailbox.one_way_counters(from_core)),
      shares_(mailbox.cores()),
      kept_(mailbox.cores()) {
  DECISIOND_CHECK(from_core < mailbox.cores());
}

bool OneWayPosts::post(uint32_t to_core, const Message& message) {
  DECISIOND_CHECK(to_core < kept_.size());
  // Behind what is kept for the same core: one-way messages arrive in the order posted.
  if (kept_[to_core].empty() && push(to_core, message)) return true;
  DECISIOND_CHECK_MSG(kept_count_ < kMaxKept, "a core keeps more one-way messages than its outbox's bound");
  kept_[to_core].push_back(message);
  ++kept_count_;
  counters_.kept.add();
  return false;
}

uint32_t OneWayPosts::in_queue(uint32_t to_core) {
  DECISIOND_CHECK(to_core < shares_.size());
  forget_taken(to_core);
  return shares_[to_core].count;
}

bool OneWayPosts::push(uint32_t to_core, const Message& message) {
  if (!share_has_room(to_core)) return false;
  SpscQueue<Message>& queue = mailbox_.queue(from_core_, to_core);
  const uint64_t position = queue.pushed();
  Message stamped = message;
  stamped.from_core = from_core_;
  if (!queue.push(stamped)) return false;
  Share& share = shares_[to_core];
  share.positions[(share.first + share.count) % kQueueSlotsForOneWay] = position;
  ++share.count;
  return true;
}

bool OneWayPosts::share_has_room(uint32_t to_core) {
  // Below the share, positions not yet forgotten only overcount: the receiver's side of
  // the queue is read only when the share looks full.
  if (shares_[to_core].count < kQueueSlotsForOneWay) return true;
  forget_taken(to_core);
  return shares_[to_core].count < kQueueSlotsForOneWay;
}

void OneWayPosts::forget_taken(uint32_t to_core) {
  Share& share = shares_[to_core];
  const uint64_t taken = mailbox_.queue(from_core_, to_core).taken();
  while (share.count > 0 && share.positions[share.first] < taken) {
    share.first = (share.first + 1) % kQueueSlotsForOneWay;
    --share.count;
  }
}

}  // namespace runtime
