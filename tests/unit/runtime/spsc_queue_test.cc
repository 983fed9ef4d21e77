#include "runtime/spsc_queue.h"

#include <thread>

#include "gtest/gtest.h"

namespace runtime {
namespace {

TEST(SpscQueue, RefusesPushWhenFull) {
  SpscQueue<int> queue(4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(queue.push(i));
  EXPECT_FALSE(queue.push(99));
  EXPECT_EQ(queue.pop(), 0);
  EXPECT_TRUE(queue.push(4));
}

TEST(SpscQueue, PopsInPushOrderAndEmptyGivesNothing) {
  SpscQueue<int> queue(8);
  EXPECT_FALSE(queue.pop().has_value());
  for (int i = 0; i < 5; ++i) queue.push(i);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(queue.pop(), i);
  EXPECT_FALSE(queue.pop().has_value());
}

TEST(SpscQueue, TwoThreadsPassEveryItemOnceInOrder) {
  SpscQueue<uint64_t> queue(64);
  constexpr uint64_t kItems = 1'000'000;
  std::thread producer([&] {
    for (uint64_t i = 0; i < kItems; ++i) {
      while (!queue.push(i)) std::this_thread::yield();
    }
  });
  uint64_t expected = 0;
  while (expected < kItems) {
    if (std::optional<uint64_t> v = queue.pop()) {
      ASSERT_EQ(*v, expected);
      ++expected;
    }
  }
  producer.join();
  EXPECT_FALSE(queue.pop().has_value());
}

}  // namespace
}  // namespace runtime
