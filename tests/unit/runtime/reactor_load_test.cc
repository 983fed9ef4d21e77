// Where a reactor's time goes (runtime::ReactorLoad): work counts as busy, a loop with
// nothing to do counts as waiting, and together they account for the wall time.
#include <atomic>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "runtime/core_group.h"
#include "tests/unit/runtime/reactor_test_loop.h"

namespace runtime {
namespace {

CoreGroupConfig one_core() {
  CoreGroupConfig config;
  config.cores = 1;
  config.reactor.ring_entries = 64;
  config.reactor.recv_buffer_count = 16;
  config.reactor.recv_buffer_bytes = 1024;
  config.reactor.max_sockets = 16;
  config.reactor.tick_ms = 10;  // a wait ends, and is counted, at least this often
  return config;
}

std::atomic<bool> spun{false};

// Work that never waits: 50 ms of spinning on the reactor's thread.
void spin_50ms(Reactor&, const Message&) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  while (std::chrono::steady_clock::now() < until) {
  }
  spun.store(true);
}

using testing::stop_core;

TEST(ReactorLoad, WorkIsBusyAndAnIdleLoopIsWaiting) {
  constexpr int64_t kMs = 1'000'000;
  spun.store(false);
  std::atomic<Reactor*> reactor{nullptr};
  CoreGroup group(one_core(), SystemClock::instance());
  const auto started_at = std::chrono::steady_clock::now();
  ASSERT_TRUE(group.start([&](Reactor& r) { reactor.store(&r); return absl::OkStatus(); }, [](Reactor&) {}).ok());

  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const ReactorLoad& load = reactor.load()->load();
  EXPECT_GE(load.wait_ns.get(), 50 * kMs);  // asleep in the ring but for its ticks
  EXPECT_LT(load.busy_ns.get(), load.wait_ns.get());

  const uint64_t busy_before_ns = load.busy_ns.get();
  Message spin;
  spin.run = &spin_50ms;
  ASSERT_TRUE(group.post(0, spin));
  while (!spun.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the spin is added as the loop next waits
  EXPECT_GE(load.busy_ns.get() - busy_before_ns, 50 * kMs);

  const uint64_t accounted_ns = load.busy_ns.get() + load.wait_ns.get();
  const auto elapsed_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - started_at).count();
  EXPECT_LE(accounted_ns, static_cast<uint64_t>(elapsed_ns));
  EXPECT_GE(accounted_ns, 150 * kMs);

  Message stop;
  stop.run = &stop_core;
  ASSERT_TRUE(group.post(0, stop));
  group.join();
}

}  // namespace
}  // namespace runtime
