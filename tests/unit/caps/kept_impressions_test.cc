// Impressions a core keeps for the shared store (caps/kept_impressions.h), and how a user's
// state read from the store counts them (caps/redis_store/fetched_caps.h): as pending serves,
// so that a capped ad is not served past its cap by the node that holds them.
#include "caps/kept_impressions.h"

#include "caps/redis_store/fetched_caps.h"
#include "gtest/gtest.h"

namespace caps {
namespace {

constexpr uint64_t kKeptUser = 0x1234;
constexpr int64_t kKeptNowS = 1'790'000'000;

uint32_t kept_count_of(const KeptImpressions& kept, uint64_t user, uint64_t ad) {
  uint32_t n = 0;
  kept.for_user(user, [&](uint64_t a, uint32_t count) { n += a == ad ? count : 0; });
  return n;
}

TEST(KeptImpressions, EachIsCountedByUserAndAdUntilRemoved) {
  KeptImpressions kept;
  kept.add(kKeptUser, 1);
  kept.add(kKeptUser, 1);
  kept.add(kKeptUser, 2);
  EXPECT_EQ(kept_count_of(kept, kKeptUser, 1), 2u);
  EXPECT_EQ(kept_count_of(kept, kKeptUser, 2), 1u);
  EXPECT_EQ(kept_count_of(kept, kKeptUser + 1, 1), 0u);
  kept.remove(kKeptUser, 1);
  kept.remove(kKeptUser, 1);
  kept.remove(kKeptUser, 2);
  EXPECT_EQ(kept.users(), 0u);
}

TEST(KeptImpressions, AStateReadFromTheStoreCountsThemAgainstTheCaps) {
  redis_store::FetchedCaps state;
  state.clear(kKeptUser);
  const CapRule two_an_hour[] = {{2, 3600}};
  EXPECT_TRUE(state.allows(kKeptUser, 1, two_an_hour, kKeptNowS));
  state.add_kept(1, 1);
  EXPECT_TRUE(state.allows(kKeptUser, 1, two_an_hour, kKeptNowS));
  state.add_kept(1, 1);
  EXPECT_FALSE(state.allows(kKeptUser, 1, two_an_hour, kKeptNowS)) << "two kept impressions reach a cap of two";
  EXPECT_TRUE(state.allows(kKeptUser, 2, two_an_hour, kKeptNowS)) << "another ad is not held back";
  EXPECT_EQ(state.pending(kKeptUser, 1, kKeptNowS), 2u);
}

TEST(KeptImpressionsDeathTest, RemovingOneNeverKeptStopsTheProcess) {
  KeptImpressions kept;
  EXPECT_DEATH(kept.remove(kKeptUser, 1), "kept impressions");
}

}  // namespace
}  // namespace caps
