// ImpressionDedup: a token counts once until it expires (DESIGN section 5).
#include "tracking/dedup/impression_dedup.h"

#include "gtest/gtest.h"

namespace tracking::dedup {
namespace {

constexpr int64_t kNow = 1'790'000'000;

TEST(ImpressionDedup, FirstSightingCountsAndRepeatsDoNot) {
  ImpressionDedup dedup;
  EXPECT_TRUE(dedup.first_sighting(12345, kNow + 3600, kNow));
  EXPECT_FALSE(dedup.first_sighting(12345, kNow + 3600, kNow + 1));
  EXPECT_FALSE(dedup.first_sighting(12345, kNow + 3600, kNow + 3599));
  EXPECT_TRUE(dedup.first_sighting(12346, kNow + 3600, kNow));
}

TEST(ImpressionDedup, TokenIdZeroIsAnIdLikeAnyOther) {
  ImpressionDedup dedup;
  EXPECT_TRUE(dedup.first_sighting(0, kNow + 10, kNow));
  EXPECT_FALSE(dedup.first_sighting(0, kNow + 10, kNow));
}

TEST(ImpressionDedup, EntriesLiveUntilTheirTokenExpiresThenAreReclaimed) {
  ImpressionDedup dedup;
  for (uint64_t id = 1; id <= 5000; ++id) ASSERT_TRUE(dedup.first_sighting(id * 0x9e3779b97f4a7c15ull, kNow + (id % 2 ? 10 : 1000), kNow));
  EXPECT_EQ(dedup.entries(), 5000u);
  for (int i = 0; i < 100; ++i) dedup.sweep_step(kNow + 20, 1000);
  EXPECT_EQ(dedup.entries(), 2500u);
  for (uint64_t id = 2; id <= 5000; id += 2) EXPECT_TRUE(dedup.contains(id * 0x9e3779b97f4a7c15ull, kNow + 20));
}

TEST(ImpressionDedup, ShardsRoundTrip) {
  ImpressionDedup dedup;
  for (uint64_t id = 1; id <= 3000; ++id) dedup.first_sighting(id * 0x2545f4914f6cdd1dull, kNow + 100, kNow);
  ImpressionDedup copy;
  for (uint32_t s = 0; s < ImpressionDedup::kShards; ++s) {
    std::string bytes;
    dedup.serialize_shard(s, kNow, bytes);
    ASSERT_TRUE(copy.load_shard(s, bytes).ok());
  }
  EXPECT_EQ(copy.entries(), 3000u);
  for (uint64_t id = 1; id <= 3000; ++id) EXPECT_FALSE(copy.first_sighting(id * 0x2545f4914f6cdd1dull, kNow + 100, kNow + 1));
}

}  // namespace
}  // namespace tracking::dedup
