#include "decision/selection/core_random.h"

#include "gtest/gtest.h"

namespace decision::selection {
namespace {

TEST(CoreRandom, SameSeedAndCoreRepeatTheSequence) {
  CoreRandom a(42, 0), b(42, 0);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.below(1'000'000), b.below(1'000'000));
}

TEST(CoreRandom, CoresWithOneSeedDrawDifferentSequences) {
  CoreRandom a(42, 0), b(42, 1);
  int same = 0;
  for (int i = 0; i < 100; ++i) same += a.below(1'000'000) == b.below(1'000'000);
  EXPECT_LT(same, 3);
}

TEST(CoreRandom, BelowStaysInRange) {
  CoreRandom r(7, 0);
  for (uint64_t bound : {1ULL, 2ULL, 3ULL, 10ULL, 1ULL << 63}) {
    for (int i = 0; i < 1000; ++i) EXPECT_LT(r.below(bound), bound);
  }
}

}  // namespace
}  // namespace decision::selection
