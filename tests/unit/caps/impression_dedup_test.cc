// ImpressionDedup: a token counts once until it expires (docs/caps.md); its shards
// round-trip and refuse malformed bytes. Registered as unit.dedup.*.
#include "tracking/dedup/impression_dedup.h"

#include <random>
#include <string>

#include "caps/shard_format.h"
#include "gtest/gtest.h"
#include "tests/support/allocation_count.h"

namespace tracking::dedup {
namespace {

constexpr int64_t kNow = 1'790'000'000;
constexpr uint64_t kSpread = 0x9e3779b97f4a7c15ull;  // spreads 1, 2, 3... over every shard

TEST(ImpressionDedup, FirstSightingCountsAndRepeatsDoNot) {
  ImpressionDedup dedup;
  EXPECT_TRUE(dedup.first_sighting(12345, kNow + 3600, kNow));
  EXPECT_FALSE(dedup.first_sighting(12345, kNow + 3600, kNow + 1));
  EXPECT_FALSE(dedup.first_sighting(12345, kNow + 3600, kNow + 3599));
  EXPECT_TRUE(dedup.first_sighting(12346, kNow + 3600, kNow));
  EXPECT_TRUE(dedup.contains(12345, kNow + 3599));
  EXPECT_FALSE(dedup.contains(12347, kNow));
}

TEST(ImpressionDedup, TokenIdZeroIsAnIdLikeAnyOther) {
  ImpressionDedup dedup;
  EXPECT_TRUE(dedup.first_sighting(0, kNow + 10, kNow));
  EXPECT_FALSE(dedup.first_sighting(0, kNow + 10, kNow));
}

// Past its expiry the token is refused upstream; its entry is then dead and its slot free.
TEST(ImpressionDedup, AnExpiredEntryIsForgottenAndItsSlotReused) {
  ImpressionDedup dedup;
  ASSERT_TRUE(dedup.first_sighting(99, kNow + 10, kNow));
  EXPECT_FALSE(dedup.contains(99, kNow + 10));
  EXPECT_TRUE(dedup.first_sighting(99, kNow + 20, kNow + 10));
  EXPECT_EQ(dedup.entries(), 1u);
}

TEST(ImpressionDedup, EntriesLiveUntilTheirTokenExpiresThenAreReclaimed) {
  ImpressionDedup dedup;
  for (uint64_t id = 1; id <= 5000; ++id) ASSERT_TRUE(dedup.first_sighting(id * kSpread, kNow + (id % 2 ? 10 : 1000), kNow));
  EXPECT_EQ(dedup.entries(), 5000u);
  for (int i = 0; i < 100; ++i) dedup.sweep_step(kNow + 20, 1000);
  EXPECT_EQ(dedup.entries(), 2500u);
  EXPECT_EQ(dedup.reclaimed(), 2500u);
  for (uint64_t id = 2; id <= 5000; id += 2) EXPECT_TRUE(dedup.contains(id * kSpread, kNow + 20));
}

TEST(ImpressionDedup, ContainsAllocatesNothing) {
  ImpressionDedup dedup;
  for (uint64_t id = 1; id <= 1000; ++id) dedup.first_sighting(id * kSpread, kNow + 60, kNow);
  EXPECT_EQ(decision::testing::allocations_while([&] {
              for (uint64_t id = 1; id <= 2000; ++id) dedup.contains(id * kSpread, kNow);
            }),
            0u);
}

TEST(ImpressionDedup, ShardOfIsStableAndHoldsTheToken) {
  ImpressionDedup dedup;
  const ImpressionDedup other;
  for (uint64_t id = 1; id <= 200; ++id) {
    const uint64_t token = id * kSpread;
    ASSERT_EQ(dedup.shard_of(token), other.shard_of(token));
    ASSERT_LT(dedup.shard_of(token), ImpressionDedup::kShards);
    dedup.first_sighting(token, kNow + 100, kNow);
    std::string bytes;
    dedup.serialize_shard(dedup.shard_of(token), kNow, bytes);
    ImpressionDedup copy;
    ASSERT_TRUE(copy.load_shard(dedup.shard_of(token), bytes).ok());
    ASSERT_TRUE(copy.contains(token, kNow)) << id;
  }
}

TEST(ImpressionDedup, ShardsRoundTripTwelveBytesAToken) {
  ImpressionDedup dedup;
  for (uint64_t id = 1; id <= 3000; ++id) dedup.first_sighting(id * 0x2545f4914f6cdd1dull, kNow + 100, kNow);
  ImpressionDedup copy;
  size_t total = 0;
  for (uint32_t s = 0; s < ImpressionDedup::kShards; ++s) {
    std::string bytes;
    dedup.serialize_shard(s, kNow, bytes);
    total += bytes.size();
    ASSERT_TRUE(copy.load_shard(s, bytes).ok());
  }
  EXPECT_EQ(total, ImpressionDedup::kShards * sizeof(caps::ShardHeader) + 3000 * 12);
  EXPECT_EQ(copy.entries(), 3000u);
  for (uint64_t id = 1; id <= 3000; ++id) EXPECT_FALSE(copy.first_sighting(id * 0x2545f4914f6cdd1dull, kNow + 100, kNow + 1));
}

TEST(ImpressionDedup, LoadRefusesEveryTruncationAndGarbage) {
  ImpressionDedup dedup;
  for (uint64_t id = 1; id <= 20000; ++id) dedup.first_sighting(id * kSpread, kNow + 100, kNow);
  const uint32_t shard = dedup.shard_of(kSpread);
  std::string bytes;
  dedup.serialize_shard(shard, kNow, bytes);
  ASSERT_GT(bytes.size(), sizeof(caps::ShardHeader) + 2 * 12);
  ImpressionDedup target;
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(target.load_shard(shard, std::string_view(bytes).substr(0, n)).ok()) << n;
    EXPECT_EQ(target.entries(), 0u);
  }
  EXPECT_FALSE(target.load_shard((shard + 1) % ImpressionDedup::kShards, bytes).ok());
  std::mt19937_64 random(11);
  for (int round = 0; round < 1000; ++round) {
    std::string garbage(random() % 100, '\0');
    for (char& c : garbage) c = static_cast<char>(random());
    if (target.load_shard(shard, garbage).ok()) target.first_sighting(random(), kNow + 10, kNow);
  }
  EXPECT_TRUE(target.load_shard(shard, bytes).ok());
  EXPECT_TRUE(target.contains(kSpread, kNow));
}

}  // namespace
}  // namespace tracking::dedup
