// The cross-core channel: messages posted by reactors and by the main thread arrive on
// the core they were sent to, once each.
#include <atomic>
#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "runtime/core_group.h"
#include "tests/unit/runtime/reactor_test_loop.h"

namespace runtime {
namespace {

constexpr uint32_t kCores = 4;  // more reactors than CPUs is fine: they block in the ring

// Written only by the receiving core (row), read by the test thread.
std::atomic<int> received[kCores][kCores];
std::atomic<int> ran_on_wrong_core{0};

CoreGroupConfig small_group() {
  CoreGroupConfig config;
  config.cores = kCores;
  config.reactor.ring_entries = 64;
  config.reactor.recv_buffer_count = 16;
  config.reactor.recv_buffer_bytes = 1024;
  config.reactor.max_sockets = 16;
  return config;
}

void record_arrival(Reactor& here, const Message& m) {
  if (m.words[0] != here.index()) ran_on_wrong_core.store(1);
  received[here.index()][m.from_core].fetch_add(1);
}

using testing::stop_core;

bool wait_until(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return done();
}

void stop_all(CoreGroup& group) {
  Message stop;
  stop.run = &stop_core;
  for (uint32_t i = 0; i < kCores; ++i) ASSERT_TRUE(group.post(i, stop));
  group.join();
}

TEST(CrossCoreMessages, EveryCoreReachesEveryOtherCore) {
  for (auto& row : received) for (auto& cell : row) cell.store(0);
  CoreGroup group(small_group(), SystemClock::instance());
  const absl::Status started = group.start(
      [](Reactor& reactor) {
        for (uint32_t to = 0; to < reactor.cores(); ++to) {
          if (to == reactor.index()) continue;
          Message m;
          m.run = &record_arrival;
          m.words[0] = to;
          if (!reactor.post(to, m)) return absl::InternalError("queue full");
        }
        return absl::OkStatus();
      },
      [](Reactor&) {});
  ASSERT_TRUE(started.ok()) << started;
  const bool all_arrived = wait_until([] {
    for (uint32_t to = 0; to < kCores; ++to) {
      for (uint32_t from = 0; from < kCores; ++from) {
        if (to != from && received[to][from].load() != 1) return false;
      }
    }
    return true;
  });
  stop_all(group);
  EXPECT_TRUE(all_arrived);
  EXPECT_EQ(ran_on_wrong_core.load(), 0);
  for (uint32_t to = 0; to < kCores; ++to) {
    for (uint32_t from = 0; from < kCores; ++from) {
      EXPECT_EQ(received[to][from].load(), to == from ? 0 : 1) << "from " << from << " to " << to;
    }
  }
}

std::atomic<int> from_control[kCores];

void record_control_arrival(Reactor& here, const Message& m) {
  if (m.words[0] != here.index()) ran_on_wrong_core.store(1);
  if (m.from_core != here.cores()) ran_on_wrong_core.store(1);  // the control sender's index
  from_control[here.index()].fetch_add(1);
}

TEST(CrossCoreMessages, MainThreadReachesEveryCore) {
  for (auto& cell : from_control) cell.store(0);
  CoreGroup group(small_group(), SystemClock::instance());
  ASSERT_TRUE(group.start([](Reactor&) { return absl::OkStatus(); }, [](Reactor&) {}).ok());
  constexpr int kPerCore = 100;
  for (int round = 0; round < kPerCore; ++round) {
    for (uint32_t to = 0; to < kCores; ++to) {
      Message m;
      m.run = &record_control_arrival;
      m.words[0] = to;
      ASSERT_TRUE(group.post(to, m));
    }
  }
  const bool all_arrived = wait_until([] {
    for (auto& cell : from_control) {
      if (cell.load() != kPerCore) return false;
    }
    return true;
  });
  stop_all(group);
  EXPECT_TRUE(all_arrived);
  EXPECT_EQ(ran_on_wrong_core.load(), 0);
  for (uint32_t to = 0; to < kCores; ++to) EXPECT_EQ(from_control[to].load(), kPerCore);
}

TEST(CrossCoreMessages, SetupFailureStopsEveryCoreAndReportsTheCore) {
  CoreGroup group(small_group(), SystemClock::instance());
  const absl::Status started = group.start(
      [](Reactor& reactor) {
        return reactor.index() == 2 ? absl::InternalError("boom") : absl::OkStatus();
      },
      [](Reactor&) {});
  EXPECT_FALSE(started.ok());
  EXPECT_NE(std::string(started.message()).find("core 2"), std::string::npos) << started;
}

}  // namespace
}  // namespace runtime
