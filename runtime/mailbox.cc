#include "runtime/mailbox.h"

namespace runtime {

Mailbox::Mailbox(uint32_t cores, uint32_t queue_capacity)
    : cores_(cores), ring_fds_(std::make_unique<std::atomic<int>[]>(cores)) {
  // Senders are cores_ reactors plus the control sender.
  queues_.reserve(size_t{cores + 1} * cores);
  for (uint32_t i = 0; i < (cores + 1) * cores; ++i) {
    queues_.push_back(std::make_unique<SpscQueue<Message>>(queue_capacity));
  }
  for (uint32_t i = 0; i < cores; ++i) ring_fds_[i].store(-1);
}

}  // namespace runtime
