#pragma once
// The one source of time. Reactors read it for timers and latency; upper layers for
// expiries and the Date header. Tests inject ManualClock to make time deterministic.
#include <atomic>
#include <chrono>
#include <cstdint>

namespace runtime {

class Clock {
 public:
  virtual ~Clock() = default;
  // Monotonic nanoseconds since an arbitrary epoch: timers and latency.
  virtual int64_t monotonic_ns() const = 0;
  // Wall-clock nanoseconds since the Unix epoch: Date headers, expiries.
  virtual int64_t wall_ns() const = 0;

  int64_t monotonic_ms() const { return monotonic_ns() / 1'000'000; }
  int64_t wall_ms() const { return wall_ns() / 1'000'000; }
  int64_t wall_s() const { return wall_ns() / 1'000'000'000; }
};

class SystemClock final : public Clock {
 public:
  int64_t monotonic_ns() const override;
  int64_t wall_ns() const override;
  static const SystemClock& instance();
};

// Time that moves only when a test says so. Safe to read from any thread.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(int64_t wall_ns = 1'763'683'200'000'000'000) : wall_ns_(wall_ns) {}
  int64_t monotonic_ns() const override { return monotonic_ns_.load(std::memory_order_relaxed); }
  int64_t wall_ns() const override { return wall_ns_.load(std::memory_order_relaxed); }
  void advance(std::chrono::nanoseconds by) {
    monotonic_ns_.store(monotonic_ns_.load() + by.count());
    wall_ns_.store(wall_ns_.load() + by.count());
  }

 private:
  std::atomic<int64_t> monotonic_ns_{0};
  std::atomic<int64_t> wall_ns_;
};

}  // namespace runtime
