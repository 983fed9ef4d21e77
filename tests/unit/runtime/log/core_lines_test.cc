#include "runtime/log/core_lines.h"

#include <cstring>

#include "gtest/gtest.h"

namespace runtime::log {
namespace {

QueuedLine line_saying(const char* text) {
  QueuedLine line;
  std::strcpy(line.message, text);
  line.formatted_bytes = static_cast<uint32_t>(std::strlen(text));
  return line;
}

TEST(CoreLines, AFullQueueDropsTheLineAndCountsIt) {
  CoreLines lines(/*core=*/2, /*capacity=*/4);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(lines.offer(line_saying("queued")));
  EXPECT_FALSE(lines.offer(line_saying("dropped")));
  EXPECT_FALSE(lines.offer(line_saying("dropped too")));
  EXPECT_EQ(lines.counters().dropped.get(), 2u);

  QueuedLine taken;
  ASSERT_TRUE(lines.take(taken));
  EXPECT_STREQ(taken.message, "queued");
  EXPECT_TRUE(lines.offer(line_saying("room again")));
  EXPECT_EQ(lines.counters().dropped.get(), 2u);
}

TEST(CoreLines, LinesAreTakenInTheOrderTheCoreSaidThem) {
  CoreLines lines(0, 8);
  lines.offer(line_saying("first"));
  lines.offer(line_saying("second"));
  QueuedLine taken;
  ASSERT_TRUE(lines.take(taken));
  EXPECT_STREQ(taken.message, "first");
  ASSERT_TRUE(lines.take(taken));
  EXPECT_STREQ(taken.message, "second");
  EXPECT_FALSE(lines.take(taken));
}

TEST(CoreLogScope, AThreadInAScopeHasItsQueueAndLosesItAfter) {
  EXPECT_EQ(this_thread_lines(), nullptr);
  {
    CoreLogScope scope(5);
    ASSERT_NE(this_thread_lines(), nullptr);
    EXPECT_EQ(this_thread_lines()->core(), 5u);
  }
  EXPECT_EQ(this_thread_lines(), nullptr);
}

TEST(CoreLogScope, TheNextThreadOfACoreGetsItsQueueBack) {
  const CoreLines* first = nullptr;
  {
    CoreLogScope scope(7);
    first = this_thread_lines();
  }
  CoreLogScope again(7);
  EXPECT_EQ(this_thread_lines(), first);
}

}  // namespace
}  // namespace runtime::log
