#pragma once
// A hashed timer wheel for connection timeouts (idle, request read, drain). Scheduling
// and cancelling are O(1) and allocate nothing: the entry lives inside its owner.
// Resolution is one tick; a timer fires on the first tick at or after its deadline.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "runtime/check.h"

namespace runtime {

class TimerWheel;

class Timer {
 public:
  Timer() = default;
  Timer(const Timer&) = delete;
  Timer& operator=(const Timer&) = delete;
  virtual ~Timer();

  bool armed() const { return wheel_ != nullptr; }
  virtual void on_expire() = 0;

 private:
  friend class TimerWheel;
  TimerWheel* wheel_ = nullptr;
  Timer* prev_ = nullptr;
  Timer* next_ = nullptr;
  int64_t due_ms_ = 0;
};

class TimerWheel {
 public:
  static constexpr uint32_t kSlots = 1024;

  TimerWheel(int64_t now_ms, int64_t tick_ms);
  ~TimerWheel();

  int64_t tick_ms() const { return tick_ms_; }
  size_t armed_count() const { return armed_; }

  // Re-schedules when already armed.
  void schedule(Timer& timer, int64_t delay_ms);
  void cancel(Timer& timer);
  // Fires every timer due at or before now_ms.
  void advance(int64_t now_ms);

 private:
  void link(Timer& timer);
  void unlink(Timer& timer);
  // The first tick at or after the deadline: that tick's advance() is the one that fires it.
  uint32_t slot_of(int64_t due_ms) const { return slot_of_tick((due_ms + tick_ms_ - 1) / tick_ms_); }
  // A tick before time zero (a clock that went negative) would index before the slots.
  static uint32_t slot_of_tick(int64_t tick) {
    const int64_t slot = tick % kSlots;
    DECISIOND_CHECK_MSG(slot >= 0, "timer slot out of range: a tick before time zero");
    return static_cast<uint32_t>(slot);
  }

  const int64_t tick_ms_;
  int64_t now_ms_;
  int64_t last_tick_ = 0;  // last tick index processed
  size_t armed_ = 0;
  std::vector<Timer*> heads_;
};

}  // namespace runtime
