// Pacing over a simulated day (docs/pacing.md, "What is promised"): even, frontloaded and
// asap goals, a goal larger than the traffic, on one core and on three.
#include <cmath>
#include <cstdio>

#include "gtest/gtest.h"
#include "tests/unit/decision/pacing/pacing_simulation.h"

namespace decision::pacing::testing {
namespace {

constexpr uint64_t kGoal = 24'000;  // 1,000 an hour: the trough's traffic still allows it

double even_at_hour(uint64_t goal, size_t hour) { return static_cast<double>(goal) * static_cast<double>(hour) / 24.0; }

void print_hours(const char* name, const SimulationResult& r, uint64_t goal) {
  std::printf("[ pacing ] %s:", name);
  for (size_t h = 0; h < r.delivered_by_hour.size(); h += 3) {
    std::printf(" h%zu=%llu(%.0f)", h + 1, static_cast<unsigned long long>(r.delivered_by_hour[h]),
                even_at_hour(goal, h + 1));
  }
  std::printf(" end=%llu of %llu\n", static_cast<unsigned long long>(r.delivered), static_cast<unsigned long long>(goal));
}

class PacingSimulation : public ::testing::TestWithParam<uint32_t> {};

TEST_P(PacingSimulation, EvenEndsWithinFivePercentAndStaysWithinTenPercentOfTheEvenCurve) {
  const SimulationResult r = simulate_day({.pacing = catalog::Pacing::kEven, .goal = kGoal, .cores = GetParam()});
  print_hours("even", r, kGoal);
  EXPECT_NEAR(static_cast<double>(r.delivered), static_cast<double>(kGoal), 0.05 * kGoal);
  EXPECT_LE(r.delivered, kGoal);
  ASSERT_EQ(r.delivered_by_hour.size(), 24u);
  for (size_t h = 1; h < 24; ++h) {  // after the first hour
    const double even = even_at_hour(kGoal, h + 1);
    EXPECT_NEAR(static_cast<double>(r.delivered_by_hour[h]), even, 0.10 * even) << "hour " << h + 1;
  }
}

TEST_P(PacingSimulation, AsapMeetsTheGoalEarlyAndStops) {
  const SimulationResult r = simulate_day({.pacing = catalog::Pacing::kAsap, .goal = kGoal, .cores = GetParam()});
  print_hours("asap", r, kGoal);
  ASSERT_GE(r.goal_met_at_s, 0) << "never met";
  EXPECT_LT(r.goal_met_at_s, 12 * 3600) << "asap should meet a goal the traffic covers 3 times early";
  // Served after the goal was counted: at most the tokens of the slice it was met in.
  EXPECT_LE(r.delivered, kGoal);
  EXPECT_LT(r.served_after_met, 200u);
  EXPECT_EQ(r.final_status, GoalStatus::kMet);
}

TEST_P(PacingSimulation, FrontloadedRunsAheadOfEvenInTheFirstHalfAndMeetsTheGoal) {
  const SimulationResult r =
      simulate_day({.pacing = catalog::Pacing::kFrontloaded, .goal = kGoal, .cores = GetParam()});
  print_hours("frontloaded", r, kGoal);
  ASSERT_EQ(r.delivered_by_hour.size(), 24u);
  for (size_t h = 1; h < 12; ++h) {
    EXPECT_GT(static_cast<double>(r.delivered_by_hour[h]), even_at_hour(kGoal, h + 1)) << "hour " << h + 1;
  }
  EXPECT_NEAR(static_cast<double>(r.delivered), static_cast<double>(kGoal), 0.05 * kGoal);
  EXPECT_LE(r.delivered, kGoal);
}

TEST_P(PacingSimulation, AGoalLargerThanTheTrafficDeliversAllItCanAndSaysItIsBehind) {
  const uint64_t goal = 200'000;  // the traffic allows about 78,000
  const SimulationResult r = simulate_day({.pacing = catalog::Pacing::kEven, .goal = goal, .cores = GetParam()});
  print_hours("larger than traffic", r, goal);
  // Every request lets the paced ad through: it wins half of them (one other ad of its
  // weight), and 9 in 10 of those are counted.
  const double all_it_can = static_cast<double>(r.requests) * 0.5 * 0.9;
  EXPECT_NEAR(static_cast<double>(r.delivered), all_it_can, 0.03 * all_it_can);
  EXPECT_EQ(r.final_status, GoalStatus::kBehind);
  EXPECT_DOUBLE_EQ(r.final_throttle, 1.0);
}

INSTANTIATE_TEST_SUITE_P(Cores, PacingSimulation, ::testing::Values(1u, 3u),
                         [](const ::testing::TestParamInfo<uint32_t>& info) {
                           return info.param == 1 ? std::string("OneCore") : std::string("ThreeCores");
                         });

}  // namespace
}  // namespace decision::pacing::testing
