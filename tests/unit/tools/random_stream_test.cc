// The generator's own distributions over std::mt19937_64 (tools/gen-catalog/random_stream.h).
#include "tools/gen-catalog/random_stream.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <set>

namespace tools::gen_catalog {
namespace {

// The standard fixes mt19937_64's sequence: its 10000th output from the default seed.
// Catalogs are the same on every standard library because only the engine is theirs.
TEST(RandomStream, EngineIsTheStandardOne) {
  std::mt19937_64 engine;
  engine.discard(9999);
  EXPECT_EQ(engine(), 9981545732273789042ull);
}

TEST(RandomStream, BelowStaysInRangeAndCoversIt) {
  RandomStream random(7);
  std::array<int, 6> seen{};
  for (int i = 0; i < 60'000; ++i) {
    const uint64_t value = random.below(6);
    ASSERT_LT(value, 6u);
    ++seen[value];
  }
  for (int count : seen) EXPECT_NEAR(count, 10'000, 400);
}

TEST(RandomStream, BetweenIncludesBothEnds) {
  RandomStream random(8);
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(random.between(3, 5));
  EXPECT_EQ(seen, (std::set<uint64_t>{3, 4, 5}));
}

TEST(RandomStream, ChanceZeroNeverAndOneAlways) {
  RandomStream random(9);
  for (int i = 0; i < 10'000; ++i) {
    EXPECT_FALSE(random.chance(0));
    EXPECT_TRUE(random.chance(1));
  }
}

TEST(RandomStream, WeightedFollowsTheWeights) {
  RandomStream random(10);
  const uint32_t weights[] = {10, 0, 90};
  std::array<int, 3> seen{};
  for (int i = 0; i < 100'000; ++i) ++seen[random.weighted(weights)];
  EXPECT_EQ(seen[1], 0);
  EXPECT_NEAR(seen[0], 10'000, 600);
}

// Small picks scan, large ones use a set: both give k distinct ascending values.
TEST(RandomStream, DistinctGivesKDistinctAscendingValues) {
  RandomStream random(11);
  for (uint32_t k : {0u, 1u, 5u, 16u, 17u, 300u, 1024u}) {
    const std::vector<uint32_t> values = random.distinct(k, 1024);
    ASSERT_EQ(values.size(), k);
    EXPECT_TRUE(std::is_sorted(values.begin(), values.end()));
    EXPECT_EQ(std::set<uint32_t>(values.begin(), values.end()).size(), k);
    if (k > 0) {
      EXPECT_LT(values.back(), 1024u);
    }
  }
}

TEST(RandomStream, StreamsOfOneSeedDiffer) {
  EXPECT_NE(stream_seed(1, 0), stream_seed(1, 1));
  EXPECT_NE(stream_seed(1, 0), stream_seed(2, 0));
  EXPECT_EQ(stream_seed(1, 0), stream_seed(1, 0));
}

}  // namespace
}  // namespace tools::gen_catalog
