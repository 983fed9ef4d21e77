#include "decision/selection/weighted_sampler.h"

#include <array>
#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace decision::selection {
namespace {

uint32_t draw(const std::vector<uint32_t>& weights, std::span<uint32_t> out, CoreRandom& random) {
  std::vector<uint32_t> scratch(weights.size());
  return WeightedSampler::draw(weights, scratch, out, random);
}

TEST(WeightedSampler, DrawsEachCandidateAtMostOnce) {
  CoreRandom random(1, 0);
  const std::vector<uint32_t> weights = {5, 1, 1, 100, 3, 7};
  std::array<uint32_t, 6> out{};
  for (int round = 0; round < 1000; ++round) {
    ASSERT_EQ(draw(weights, out, random), 6u);
    EXPECT_EQ(std::set<uint32_t>(out.begin(), out.end()).size(), 6u);
  }
}

TEST(WeightedSampler, ZeroWeightIsNeverDrawnAndShortensTheResult) {
  CoreRandom random(2, 0);
  const std::vector<uint32_t> weights = {0, 4, 0, 9};
  std::array<uint32_t, 4> out{};
  for (int round = 0; round < 1000; ++round) {
    ASSERT_EQ(draw(weights, out, random), 2u);
    for (int i = 0; i < 2; ++i) EXPECT_TRUE(out[i] == 1 || out[i] == 3);
  }
}

TEST(WeightedSampler, NothingEligibleDrawsNothing) {
  CoreRandom random(3, 0);
  std::array<uint32_t, 3> out{};
  EXPECT_EQ(draw({}, out, random), 0u);
  EXPECT_EQ(draw({0, 0}, out, random), 0u);
}

// With a fixed seed the share of first draws follows the weights within a few percent.
TEST(WeightedSampler, FirstDrawFollowsTheWeights) {
  CoreRandom random(4, 0);
  const std::vector<uint32_t> weights = {10, 30, 60};
  std::array<int, 3> firsts{};
  constexpr int kDraws = 200'000;
  std::array<uint32_t, 1> out{};
  for (int i = 0; i < kDraws; ++i) {
    ASSERT_EQ(draw(weights, out, random), 1u);
    ++firsts[out[0]];
  }
  EXPECT_NEAR(firsts[0] / double{kDraws}, 0.10, 0.01);
  EXPECT_NEAR(firsts[1] / double{kDraws}, 0.30, 0.01);
  EXPECT_NEAR(firsts[2] / double{kDraws}, 0.60, 0.01);
}

// Without replacement: the second draw is proportional to the weights left. With weights
// {1, 1, 2}, P(second = 2) = P(first=0)*2/3 + P(first=1)*2/3 = 1/4*2/3*2 = 1/3.
TEST(WeightedSampler, SecondDrawFollowsTheWeightsLeft) {
  CoreRandom random(5, 0);
  const std::vector<uint32_t> weights = {1, 1, 2};
  int second_is_heavy = 0;
  constexpr int kDraws = 200'000;
  std::array<uint32_t, 2> out{};
  for (int i = 0; i < kDraws; ++i) {
    ASSERT_EQ(draw(weights, out, random), 2u);
    second_is_heavy += out[1] == 2;
  }
  EXPECT_NEAR(second_is_heavy / double{kDraws}, 1.0 / 3.0, 0.01);
}

TEST(WeightedSampler, SameSeedGivesTheSameDraws) {
  CoreRandom a(9, 3), b(9, 3);
  const std::vector<uint32_t> weights = {3, 1, 4, 1, 5, 9, 2, 6};
  std::array<uint32_t, 5> out_a{}, out_b{};
  for (int round = 0; round < 100; ++round) {
    draw(weights, out_a, a);
    draw(weights, out_b, b);
    EXPECT_EQ(out_a, out_b);
  }
}

}  // namespace
}  // namespace decision::selection
