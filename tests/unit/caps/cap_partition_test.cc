// CapPartition: docs/caps.md, one test per rule.
#include "caps/cap_partition.h"

#include <algorithm>
#include <random>
#include <vector>

#include "caps/user_key.h"
#include "gtest/gtest.h"
#include "tests/unit/caps/cap_test_values.h"

namespace caps {
namespace {

using testing::kNow;
using testing::kUser;

TEST(CapPartition, CapOfNAllowsNThenRefusesWithinTheWindow) {
  CapPartition caps;
  const CapRule rule[] = {{3, 3600}};
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(caps.allows(kUser, 7, rule, kNow + i)) << i;
    caps.record(kUser, 7, rule, kNow + i);
  }
  EXPECT_FALSE(caps.allows(kUser, 7, rule, kNow + 3));
  EXPECT_FALSE(caps.allows(kUser, 7, rule, kNow + 3599));
}

TEST(CapPartition, WindowSlidesPastTheOldestImpression) {
  CapPartition caps;
  const CapRule rule[] = {{2, 100}};
  caps.record(kUser, 7, rule, kNow);
  caps.record(kUser, 7, rule, kNow + 50);
  EXPECT_FALSE(caps.allows(kUser, 7, rule, kNow + 99));
  EXPECT_TRUE(caps.allows(kUser, 7, rule, kNow + 100));  // the first has left the window
  caps.record(kUser, 7, rule, kNow + 100);
  EXPECT_FALSE(caps.allows(kUser, 7, rule, kNow + 149));
  EXPECT_TRUE(caps.allows(kUser, 7, rule, kNow + 150));
}

TEST(CapPartition, TheStrictestOfSeveralCapsDecides) {
  CapPartition caps;
  const CapRule rules[] = {{5, 86400}, {1, 60}};
  caps.record(kUser, 7, rules, kNow);
  EXPECT_FALSE(caps.allows(kUser, 7, rules, kNow + 30));  // 1 per minute
  EXPECT_TRUE(caps.allows(kUser, 7, rules, kNow + 60));
  for (int i = 1; i < 5; ++i) caps.record(kUser, 7, rules, kNow + 60 * i);
  EXPECT_FALSE(caps.allows(kUser, 7, rules, kNow + 3600));  // 5 per day
}

TEST(CapPartition, UsersAndAdsAreIndependent) {
  CapPartition caps;
  const CapRule rule[] = {{1, 3600}};
  caps.record(kUser, 7, rule, kNow);
  EXPECT_FALSE(caps.allows(kUser, 7, rule, kNow));
  EXPECT_TRUE(caps.allows(kUser, 8, rule, kNow));
  EXPECT_TRUE(caps.allows(user_key("u2"), 7, rule, kNow));
}

TEST(CapPartition, ExpiredEntriesAreAbsentBeforeTheSweepAndTheirSlotsReused) {
  CapPartition caps;
  const CapRule rule[] = {{1, 60}};
  caps.record(kUser, 7, rule, kNow);
  EXPECT_FALSE(caps.allows(kUser, 7, rule, kNow + 59));
  EXPECT_TRUE(caps.allows(kUser, 7, rule, kNow + 60));  // no sweep has run
  caps.record(kUser, 7, rule, kNow + 60);
  EXPECT_EQ(caps.entries(), 1u);  // the dead entry was reused
  EXPECT_FALSE(caps.allows(kUser, 7, rule, kNow + 61));
}

TEST(CapPartition, AdWithoutCapsIsAlwaysAllowed) {
  CapPartition caps;
  caps.record(kUser, 7, {}, kNow);
  EXPECT_TRUE(caps.allows(kUser, 7, {}, kNow));
  EXPECT_EQ(caps.entries(), 0u);
}

// Large caps are bucketed: checked against an exact model of the impressions it allowed.
// Never looser: no window of W seconds ever holds more than n of them. At most one bucket
// stricter: a refusal is always justified by n impressions in the last W + ceil(W/7) seconds.
TEST(CapPartition, BucketedCapNeverAllowsMoreThanNInAnyWindow) {
  std::mt19937_64 random(42);
  for (int round = 0; round < 40; ++round) {
    CapPartition caps;
    const CapRule rule[] = {{static_cast<uint32_t>(6 + random() % 40), static_cast<uint32_t>(60 + random() % 5000)}};
    const int64_t window = rule[0].window_s;
    const int64_t bucket = (window + 6) / 7;
    std::vector<int64_t> served;
    const auto served_since = [&](int64_t after) {
      return std::count_if(served.begin(), served.end(), [&](int64_t t) { return t > after; });
    };
    int64_t now = kNow;
    for (int step = 0; step < 3000; ++step) {
      now += static_cast<int64_t>(random() % (window / 10 + 1));
      if (!caps.allows(kUser, 7, rule, now)) {
        ASSERT_GE(served_since(now - window - bucket), rule[0].impressions) << "round " << round << " step " << step;
        continue;
      }
      caps.record(kUser, 7, rule, now);
      served.push_back(now);
      ASSERT_LE(served_since(now - window), rule[0].impressions) << "round " << round << " step " << step;
    }
  }
}

TEST(CapPartition, BucketedCapHoldsBackAtMostOneBucketLongerThanExact) {
  CapPartition caps;
  const CapRule rule[] = {{10, 700}};  // buckets of 100 s
  for (int i = 0; i < 10; ++i) caps.record(kUser, 7, rule, kNow + i);
  EXPECT_FALSE(caps.allows(kUser, 7, rule, kNow + 500));
  // Exact counting would allow again at kNow + 700; the bucket holding them ends by
  // kNow + 100, so from kNow + 800 at the latest the window is clear.
  EXPECT_TRUE(caps.allows(kUser, 7, rule, kNow + 800));
}

TEST(CapPartition, SweepReclaimsExpiredEntriesAndKeepsLiveOnes) {
  CapPartition caps;
  const CapRule short_cap[] = {{1, 10}};
  const CapRule long_cap[] = {{1, 100000}};
  for (uint64_t u = 0; u < 1000; ++u) caps.record(user_key("s" + std::to_string(u)), 1, short_cap, kNow);
  for (uint64_t u = 0; u < 1000; ++u) caps.record(user_key("l" + std::to_string(u)), 1, long_cap, kNow);
  EXPECT_EQ(caps.entries(), 2000u);
  for (int i = 0; i < 1000; ++i) caps.sweep_step(kNow + 20, 1000);
  EXPECT_EQ(caps.entries(), 1000u);
  EXPECT_EQ(caps.reclaimed(), 1000u);
  for (uint64_t u = 0; u < 1000; ++u) EXPECT_FALSE(caps.allows(user_key("l" + std::to_string(u)), 1, long_cap, kNow + 20));
}

}  // namespace
}  // namespace caps
