#include "runtime/timer_wheel.h"

#include "runtime/check.h"

namespace runtime {

Timer::~Timer() {
  if (wheel_ != nullptr) wheel_->cancel(*this);
}

TimerWheel::TimerWheel(int64_t now_ms, int64_t tick_ms)
    : tick_ms_(tick_ms), now_ms_(now_ms), heads_(kSlots, nullptr) {
  DECISIOND_CHECK_MSG(tick_ms > 0, "timer wheel tick must be positive");
  last_tick_ = now_ms / tick_ms;
}

TimerWheel::~TimerWheel() {
  for (Timer* head : heads_) {
    for (Timer* t = head; t != nullptr;) {
      Timer* next = t->next_;
      t->wheel_ = nullptr;
      t->prev_ = t->next_ = nullptr;
      t = next;
    }
  }
}

void TimerWheel::schedule(Timer& timer, int64_t delay_ms) {
  if (timer.wheel_ != nullptr) unlink(timer);
  // Never due in the tick being processed: that slot may be mid-iteration.
  const int64_t earliest = (last_tick_ + 1) * tick_ms_;
  const int64_t due = now_ms_ + (delay_ms < 0 ? 0 : delay_ms);
  timer.due_ms_ = due < earliest ? earliest : due;
  link(timer);
}

void TimerWheel::cancel(Timer& timer) {
  if (timer.wheel_ == this) unlink(timer);
}

void TimerWheel::link(Timer& timer) {
  // Linked twice, a timer would sit in two slots (or twice in one): the first unlink
  // would leave the other list pointing at it after its owner is gone.
  DECISIOND_CHECK_MSG(timer.wheel_ == nullptr, "timer linked while already on a wheel");
  Timer*& head = heads_[slot_of(timer.due_ms_)];
  timer.wheel_ = this;
  timer.prev_ = nullptr;
  timer.next_ = head;
  if (head != nullptr) head->prev_ = &timer;
  head = &timer;
  ++armed_;
}

void TimerWheel::unlink(Timer& timer) {
  // A timer armed on another wheel (another core's) is in that wheel's lists, not ours.
  DECISIOND_CHECK_MSG(timer.wheel_ == this, "timer unlinked from a wheel it is not on");
  DECISIOND_CHECK_MSG(armed_ > 0, "timer wheel armed count would wrap");
  if (timer.prev_ != nullptr) {
    timer.prev_->next_ = timer.next_;
  } else {
    heads_[slot_of(timer.due_ms_)] = timer.next_;
  }
  if (timer.next_ != nullptr) timer.next_->prev_ = timer.prev_;
  timer.wheel_ = nullptr;
  timer.prev_ = timer.next_ = nullptr;
  --armed_;
}

void TimerWheel::advance(int64_t now_ms) {
  if (now_ms < now_ms_) return;
  now_ms_ = now_ms;
  const int64_t target_tick = now_ms / tick_ms_;
  // After a long stall only one lap of the wheel needs visiting.
  int64_t tick = last_tick_ + 1;
  if (target_tick - tick >= kSlots) tick = target_tick - kSlots + 1;
  for (; tick <= target_tick; ++tick) {
    last_tick_ = tick;
    Timer* t = heads_[slot_of_tick(tick)];
    while (t != nullptr) {
      Timer* next = t->next_;
      if (t->due_ms_ <= now_ms) {
        unlink(*t);
        // The callback may schedule or cancel any timer, including `next`; re-reading the
        // slot head keeps the walk valid.
        t->on_expire();
        next = heads_[slot_of_tick(tick)];
        // Skip entries that stay (due on a later lap).
        while (next != nullptr && next->due_ms_ > now_ms) next = next->next_;
      }
      t = next;
    }
  }
  last_tick_ = target_tick;
}

}  // namespace runtime
