#pragma once
// The cross-core channel: one bounded SPSC queue per ordered pair of senders and
// receivers. Senders are the reactors plus one control sender (the main thread).
// The mailbox only holds the queues; the wake-up of a receiver goes through its ring
// (IORING_OP_MSG_RING), which the sender's reactor or the ControlSender issues.
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/message.h"
#include "runtime/one_way_counters.h"
#include "runtime/spsc_queue.h"

namespace runtime {

class Mailbox {
 public:
  static constexpr uint32_t kDefaultQueueCapacity = 1024;

  Mailbox(uint32_t cores, uint32_t queue_capacity = kDefaultQueueCapacity);
  ~Mailbox();
  Mailbox(const Mailbox&) = delete;
  Mailbox& operator=(const Mailbox&) = delete;

  uint32_t cores() const { return cores_; }
  // The sender index of the main thread's control sender.
  uint32_t control_sender() const { return cores_; }

  SpscQueue<Message>& queue(uint32_t from, uint32_t to) { return *queues_[from * cores_ + to]; }

  // Each reactor publishes its ring's fd before any core may post to it; the start-up
  // barrier of CoreGroup orders these stores before every load.
  void set_ring_fd(uint32_t core, int fd) { ring_fds_[core].store(fd, std::memory_order_release); }
  int ring_fd(uint32_t core) const { return ring_fds_[core].load(std::memory_order_acquire); }

  // The one-way posts' counters of each core (one_way_post.h).
  OneWayCounters& one_way_counters(uint32_t core) { return one_way_counters_[core]; }

  // The control sender's wait for room in its queue to a core (one_way_post.h), without a
  // sleep loop: it says which queue it waits on, tries once more, and only then blocks on
  // an eventfd that the core writes after taking messages from that queue. A seq_cst fence
  // on each side (after the sender's "waits" store, after the core's takes) makes sure
  // that either the sender's retry finds room or the core sees it waiting.
  void control_sender_waits_for(uint32_t core);
  void control_sender_waits_no_more();
  // Blocks until a core has taken messages from a queue the control sender waits on (or
  // had done so since the last call).
  void wait_for_control_room();
  // By the core after it took at least one message from the control sender's queue to it.
  void control_queue_taken(uint32_t core);

 private:
  static constexpr uint32_t kNoCore = UINT32_MAX;

  const uint32_t cores_;
  std::vector<std::unique_ptr<SpscQueue<Message>>> queues_;
  std::unique_ptr<std::atomic<int>[]> ring_fds_;
  std::unique_ptr<OneWayCounters[]> one_way_counters_;
  std::atomic<uint32_t> control_waits_for_{kNoCore};
  int control_room_fd_ = -1;  // eventfd: written by a core, read by the control sender
};

}  // namespace runtime
