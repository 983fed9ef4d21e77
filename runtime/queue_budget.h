#pragma once
// The queue-capacity rule of cross-core messages. The queue from core a to core b carries,
// for each kind of ask, at most kPerPeer asks (a's loans to b) and kPerPeer answers (to b's
// loans to a): an answer exists only while its ask is on loan, and an ask's message has
// left the queue before its answer is made. So a queue needs 2 x kPerPeer slots per kind,
// plus the share of one-way messages (one_way_post.h), which each sending core keeps to by
// itself. If that fits, no answer ever finds its queue full, and the answer side need not
// handle a refusal: it is a broken invariant (checked, runtime/check.h).
//
// Checked twice: at compile time where the kinds are listed together (service/), and at
// start by each CrossCoreAsks, which reserves its slots from its core's channel.
#include <cstdint>

namespace runtime {

// Queue slots of one-way messages in each queue between two cores, what a sending core
// lets its one-way messages fill at once (one_way_post.h): the drain notice a core sends
// each core once at shutdown, and the snapshot steps a core posts to itself, one at a time.
inline constexpr uint32_t kQueueSlotsForOneWay = 8;

// The slots one kind of ask may fill in one queue at once.
template <typename Work>
constexpr uint32_t queue_slots_of() {
  return 2 * Work::kPerPeer;
}

// The slots every listed kind, and the one-way messages, may fill in one queue at once.
template <typename... Works>
constexpr uint32_t queue_slots_needed() {
  return (queue_slots_of<Works>() + ... + kQueueSlotsForOneWay);
}

// Every kind of ask a server makes, listed once (service/cross_core_kinds.h): their slots
// with the one-way share, and each kind in turn for whoever shows the budget kind by kind.
template <typename... Works>
struct AskKinds {
  static constexpr uint32_t kQueueSlots = queue_slots_needed<Works...>();
  // Calls visit.template operator()<Work>() for each kind, in the listed order.
  template <typename Visit>
  static void for_each(Visit&& visit) {
    (visit.template operator()<Works>(), ...);
  }
};

}  // namespace runtime
