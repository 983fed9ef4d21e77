#include "runtime/mailbox.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>

#include "runtime/check.h"

namespace runtime {

Mailbox::Mailbox(uint32_t cores, uint32_t queue_capacity)
    : cores_(cores),
      ring_fds_(std::make_unique<std::atomic<int>[]>(cores)),
      one_way_counters_(std::make_unique<OneWayCounters[]>(cores)),
      control_room_fd_(::eventfd(0, EFD_CLOEXEC)) {
  DECISIOND_CHECK_MSG(control_room_fd_ >= 0, "eventfd for the control sender's queues");
  // Senders are cores_ reactors plus the control sender.
  queues_.reserve(size_t{cores + 1} * cores);
  for (uint32_t i = 0; i < (cores + 1) * cores; ++i) {
    queues_.push_back(std::make_unique<SpscQueue<Message>>(queue_capacity));
  }
  for (uint32_t i = 0; i < cores; ++i) ring_fds_[i].store(-1);
}

Mailbox::~Mailbox() { ::close(control_room_fd_); }

void Mailbox::control_sender_waits_for(uint32_t core) {
  DECISIOND_CHECK(core < cores_);
  control_waits_for_.store(core, std::memory_order_relaxed);
  // Before the retry reads how much the core has taken (control_queue_taken's pair).
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

void Mailbox::control_sender_waits_no_more() { control_waits_for_.store(kNoCore, std::memory_order_relaxed); }

void Mailbox::wait_for_control_room() {
  eventfd_t made = 0;
  while (::eventfd_read(control_room_fd_, &made) != 0) {
    DECISIOND_CHECK_MSG(errno == EINTR, "reading the control sender's eventfd");
  }
}

void Mailbox::control_queue_taken(uint32_t core) {
  // After the takes were published (the queue's head), before reading whether the sender
  // waits (control_sender_waits_for's pair).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (control_waits_for_.load(std::memory_order_relaxed) != core) return;
  ::eventfd_write(control_room_fd_, 1);
}

}  // namespace runtime
