#include "runtime/clock.h"

#include <time.h>

namespace runtime {

namespace {
int64_t read_ns(clockid_t id) {
  timespec ts;
  // vDSO: no system call.
  clock_gettime(id, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}
}  // namespace

int64_t SystemClock::monotonic_ns() const { return read_ns(CLOCK_MONOTONIC); }
int64_t SystemClock::wall_ns() const { return read_ns(CLOCK_REALTIME); }

const SystemClock& SystemClock::instance() {
  static const SystemClock clock;
  return clock;
}

}  // namespace runtime
