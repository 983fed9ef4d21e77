#pragma once
// A counter written by exactly one core and read by anyone (a metrics scrape). The owner
// increments with a plain load and store, no read-modify-write: there is no other writer.
#include <atomic>
#include <cstdint>

namespace runtime {

class CoreCounter {
 public:
  void add(uint64_t n = 1) { value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed); }
  void sub(uint64_t n = 1) { value_.store(value_.load(std::memory_order_relaxed) - n, std::memory_order_relaxed); }
  void set(uint64_t v) { value_.store(v, std::memory_order_relaxed); }
  uint64_t get() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

}  // namespace runtime
