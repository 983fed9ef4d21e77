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
#include "runtime/spsc_queue.h"

namespace runtime {

class Mailbox {
 public:
  static constexpr uint32_t kDefaultQueueCapacity = 1024;

  Mailbox(uint32_t cores, uint32_t queue_capacity = kDefaultQueueCapacity);

  uint32_t cores() const { return cores_; }
  // The sender index of the main thread's control sender.
  uint32_t control_sender() const { return cores_; }

  SpscQueue<Message>& queue(uint32_t from, uint32_t to) { return *queues_[from * cores_ + to]; }

  // Each reactor publishes its ring's fd before any core may post to it; the start-up
  // barrier of CoreGroup orders these stores before every load.
  void set_ring_fd(uint32_t core, int fd) { ring_fds_[core].store(fd, std::memory_order_release); }
  int ring_fd(uint32_t core) const { return ring_fds_[core].load(std::memory_order_acquire); }

 private:
  const uint32_t cores_;
  std::vector<std::unique_ptr<SpscQueue<Message>>> queues_;
  std::unique_ptr<std::atomic<int>[]> ring_fds_;
};

}  // namespace runtime
