#pragma once
// Bounded single-producer single-consumer ring. One per ordered pair of cores: the only
// memory two cores share on the request path. Loads and stores with acquire/release
// ordering, no read-modify-write, head and tail on separate cache lines.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace runtime {

template <typename T>
class SpscQueue {
 public:
  explicit SpscQueue(uint32_t capacity_pow2)
      : mask_(capacity_pow2 - 1), slots_(std::make_unique<T[]>(capacity_pow2)) {}

  uint32_t capacity() const { return mask_ + 1; }

  // Producer side. False when full: the caller decides what a full queue means.
  bool push(const T& item) {
    const uint64_t tail = tail_.load(std::memory_order_relaxed);
    if (tail - head_cache_ > mask_) {
      head_cache_ = head_.load(std::memory_order_acquire);
      if (tail - head_cache_ > mask_) return false;
    }
    slots_[tail & mask_] = item;
    tail_.store(tail + 1, std::memory_order_release);
    return true;
  }

  // Producer side: the position the next push takes (every item ever pushed counts one), and
  // how many items the consumer has taken. The item pushed at position p is still queued
  // while taken() <= p: what lets a producer bound its own share of the queue
  // (one_way_post.h) without the consumer counting anything.
  uint64_t pushed() const { return tail_.load(std::memory_order_relaxed); }
  uint64_t taken() {
    head_cache_ = head_.load(std::memory_order_acquire);
    return head_cache_;
  }

  // Consumer side.
  std::optional<T> pop() {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head == tail_cache_) {
      tail_cache_ = tail_.load(std::memory_order_acquire);
      if (head == tail_cache_) return std::nullopt;
    }
    T item = slots_[head & mask_];
    head_.store(head + 1, std::memory_order_release);
    return item;
  }

  // Consumer side: whether pop() would find an item (for polling without taking).
  bool has_items() {
    const uint64_t head = head_.load(std::memory_order_relaxed);
    if (head != tail_cache_) return true;
    tail_cache_ = tail_.load(std::memory_order_acquire);
    return head != tail_cache_;
  }

 private:
  const uint64_t mask_;
  std::unique_ptr<T[]> slots_;
  alignas(64) std::atomic<uint64_t> tail_{0};
  uint64_t head_cache_ = 0;  // producer's last view of head_
  alignas(64) std::atomic<uint64_t> head_{0};
  uint64_t tail_cache_ = 0;  // consumer's last view of tail_
};

}  // namespace runtime
