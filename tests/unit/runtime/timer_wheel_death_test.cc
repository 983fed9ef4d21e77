// The timer wheel's invariants hold in Release (runtime/check.h): a timer is on one wheel
// in one slot, and a slot index is never negative. Broken, the process stops and says why.
#include "gtest/gtest.h"
#include "runtime/timer_wheel.h"

namespace runtime {
namespace {

class NoopTimer final : public Timer {
 public:
  void on_expire() override {}
};

TEST(TimerWheelDeathTest, ATimerArmedOnOneWheelCannotBeScheduledOnAnother) {
  TimerWheel home(0, 100);
  TimerWheel other(0, 100);
  NoopTimer timer;
  home.schedule(timer, 500);
  EXPECT_DEATH(other.schedule(timer, 500), "check failed: .*timer unlinked from a wheel it is not on");
}

TEST(TimerWheelDeathTest, ADeadlineBeforeTimeZeroStopsInsteadOfIndexingBeforeTheSlots) {
  TimerWheel wheel(-10'000, 100);
  NoopTimer timer;
  EXPECT_DEATH(wheel.schedule(timer, 0), "check failed: .*timer slot out of range");
}

TEST(TimerWheelDeathTest, ATickOfZeroStops) {
  EXPECT_DEATH(TimerWheel(0, 0), "check failed: .*timer wheel tick must be positive");
}

}  // namespace
}  // namespace runtime
