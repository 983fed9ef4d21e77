#include "runtime/log/repeat_limit.h"

#include <string>

#include "gtest/gtest.h"

namespace runtime::log {
namespace {

constexpr const char* kComponent = "redis";
constexpr const char* kLost = "redis %s: connection lost";
constexpr const char* kUp = "redis cluster %s -> %s";

TEST(RepeatLimit, TheFirstLinesOfAWindowAreWrittenAndTheRestHeldBack) {
  RepeatLimit limit(10'000, 3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limit.admit({kComponent, kLost}, Level::kWarn, "lost", 1'000 + i));
  EXPECT_FALSE(limit.admit({kComponent, kLost}, Level::kWarn, "lost again", 1'010));
  EXPECT_FALSE(limit.admit({kComponent, kLost}, Level::kWarn, "lost once more", 1'020));
}

TEST(RepeatLimit, LinesOfAnotherTemplateOrComponentAreNotHeldBackByThem) {
  RepeatLimit limit(10'000, 1);
  EXPECT_TRUE(limit.admit({kComponent, kLost}, Level::kWarn, "lost", 0));
  EXPECT_FALSE(limit.admit({kComponent, kLost}, Level::kWarn, "lost", 1));
  EXPECT_TRUE(limit.admit({kComponent, kUp}, Level::kInfo, "up", 2));
  EXPECT_TRUE(limit.admit({"caps", kLost}, Level::kWarn, "lost", 3));
}

TEST(RepeatLimit, AWindowThatHeldLinesBackEndsWithTheirCountAndTheLastOfThem) {
  RepeatLimit limit(10'000, 2);
  for (int i = 0; i < 7; ++i) limit.admit({kComponent, kLost}, Level::kWarn, "lost #" + std::to_string(i), 100 + i);
  EXPECT_TRUE(limit.end_windows(10'099).empty()) << "not over yet";
  const std::vector<HeldBack> ended = limit.end_windows(10'100);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].lines, 5u);
  EXPECT_EQ(ended[0].last_message, "lost #6");
  EXPECT_EQ(ended[0].level, Level::kWarn);
  EXPECT_STREQ(ended[0].component, kComponent);
  EXPECT_EQ(ended[0].window_end_ms, 10'100);
}

TEST(RepeatLimit, AWindowThatHeldNothingBackEndsWithoutASummary) {
  RepeatLimit limit(10'000, 2);
  limit.admit({kComponent, kLost}, Level::kWarn, "lost", 0);
  EXPECT_FALSE(limit.next_summary_ms().has_value());
  EXPECT_TRUE(limit.end_windows(20'000).empty());
}

TEST(RepeatLimit, ANewWindowWritesAgainOnceTheLastHasEnded) {
  RepeatLimit limit(10'000, 1);
  EXPECT_TRUE(limit.admit({kComponent, kLost}, Level::kWarn, "lost", 0));
  EXPECT_FALSE(limit.admit({kComponent, kLost}, Level::kWarn, "lost", 5'000));
  EXPECT_EQ(limit.next_summary_ms(), 10'000);
  EXPECT_EQ(limit.end_windows(10'000).size(), 1u);
  EXPECT_TRUE(limit.admit({kComponent, kLost}, Level::kWarn, "lost", 10'001));
  EXPECT_FALSE(limit.next_summary_ms().has_value());
}

TEST(RepeatLimit, AtExitEveryWindowEndsNow) {
  RepeatLimit limit(10'000, 1);
  limit.admit({kComponent, kLost}, Level::kWarn, "lost", 0);
  limit.admit({kComponent, kLost}, Level::kWarn, "lost", 1);
  const std::vector<HeldBack> ended = limit.end_windows(2'000, /*everything=*/true);
  ASSERT_EQ(ended.size(), 1u);
  EXPECT_EQ(ended[0].window_end_ms, 2'000);
  EXPECT_FALSE(limit.next_summary_ms().has_value());
}

}  // namespace
}  // namespace runtime::log
