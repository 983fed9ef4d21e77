// CapPartition: DESIGN section 4 step 3, one test per rule.
#include "caps/cap_partition.h"

#include <deque>
#include <random>
#include <vector>

#include "caps/user_key.h"
#include "gtest/gtest.h"

namespace caps {
namespace {

constexpr int64_t kNow = 1'790'000'000;
const uint64_t kUser = user_key("u1");

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

TEST(CapPartition, AdWithoutCapsIsAlwaysAllowed) {
  CapPartition caps;
  caps.record(kUser, 7, {}, kNow);
  EXPECT_TRUE(caps.allows(kUser, 7, {}, kNow));
  EXPECT_EQ(caps.entries(), 0u);
}

// Large caps are bucketed: checked against an exact model of the impressions it allowed.
TEST(CapPartition, BucketedCapNeverAllowsMoreThanNInAnyWindow) {
  std::mt19937_64 random(42);
  for (int round = 0; round < 20; ++round) {
    CapPartition caps;
    const CapRule rule[] = {{static_cast<uint32_t>(6 + random() % 40), static_cast<uint32_t>(60 + random() % 5000)}};
    std::deque<int64_t> served;
    int64_t now = kNow;
    for (int step = 0; step < 3000; ++step) {
      now += static_cast<int64_t>(random() % (rule[0].window_s / 10 + 1));
      if (!caps.allows(kUser, 7, rule, now)) continue;
      caps.record(kUser, 7, rule, now);
      served.push_back(now);
      while (!served.empty() && now - served.front() >= rule[0].window_s) served.pop_front();
      ASSERT_LE(served.size(), rule[0].impressions) << "round " << round << " step " << step;
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

TEST(CapPartition, ShardsSerializeAndLoadBackToTheSameAnswers) {
  CapPartition caps;
  const CapRule rules[] = {{2, 3600}, {20, 86400}};
  for (int u = 0; u < 500; ++u) {
    for (int i = 0; i < u % 4; ++i) caps.record(user_key("u" + std::to_string(u)), 9, rules, kNow + i);
  }
  CapPartition copy;
  for (uint32_t shard = 0; shard < CapPartition::kShards; ++shard) {
    std::string bytes;
    caps.serialize_shard(shard, kNow + 10, bytes);
    ASSERT_TRUE(copy.load_shard(shard, bytes).ok());
  }
  EXPECT_EQ(copy.entries(), caps.entries());
  for (int u = 0; u < 500; ++u) {
    const uint64_t key = user_key("u" + std::to_string(u));
    EXPECT_EQ(copy.allows(key, 9, rules, kNow + 10), caps.allows(key, 9, rules, kNow + 10)) << u;
  }
}

TEST(CapPartition, LoadRefusesTruncatedOrForeignBytes) {
  CapPartition caps;
  const CapRule rule[] = {{1, 3600}};
  for (int u = 0; u < 3000; ++u) caps.record(user_key("u" + std::to_string(u)), 1, rule, kNow);
  const uint32_t shard = caps.shard_of(kUser);
  std::string bytes;
  caps.serialize_shard(shard, kNow, bytes);
  ASSERT_GT(bytes.size(), 4u + 32u);
  CapPartition target;
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(target.load_shard(shard, std::string_view(bytes).substr(0, n)).ok()) << n;
    EXPECT_EQ(target.entries(), 0u);
  }
  EXPECT_FALSE(target.load_shard((shard + 1) % CapPartition::kShards, bytes).ok());  // keys of another shard
  EXPECT_TRUE(target.load_shard(shard, bytes).ok());
}

TEST(UserKey, OwnerCoreSpreadsUsersEvenly) {
  constexpr uint32_t kCores = 4;
  uint32_t per_core[kCores] = {};
  for (int u = 0; u < 40000; ++u) ++per_core[owner_core(user_key("user-" + std::to_string(u)), kCores)];
  for (uint32_t c = 0; c < kCores; ++c) {
    EXPECT_GT(per_core[c], 9000u) << c;
    EXPECT_LT(per_core[c], 11000u) << c;
  }
}

TEST(UserKey, IsStable) {
  // Persisted in snapshots: a change of hash or seed would orphan every saved count.
  EXPECT_EQ(user_key("u1"), user_key("u1"));
  EXPECT_NE(user_key("u1"), user_key("u2"));
  EXPECT_EQ(owner_core(user_key("u1"), 1), 0u);
}

}  // namespace
}  // namespace caps
