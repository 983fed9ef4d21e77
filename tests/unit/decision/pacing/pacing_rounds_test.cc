// The rounds of one core (docs/pacing.md, "Across cores" and "Readiness"): the first round
// allots every goal, and a catalog swap that brings a goal allots it at once, leaving the
// allotments of the other goals as they were for the rest of their slice.
#include "decision/pacing/pacing_rounds.h"

#include <vector>

#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "runtime/timer_wheel.h"

namespace decision::pacing {
namespace {

constexpr uint64_t kFirstGoalAd = 101;
constexpr uint64_t kSwapGoalAd = 202;
constexpr int64_t kHourIntervalS = 3600;

PacedGoal open_asap_goal(uint64_t ad_id) {
  // A flight from 2020 to 2099 (the clock's default is 2025).
  return {ad_id, {{.impressions = 1000, .pacing = catalog::Pacing::kAsap}, 1'577'836'800, 4'070'908'800}};
}

struct SwappedGoals final : GoalSource {
  std::vector<PacedGoal> goals;
  std::span<const PacedGoal> paced_goals() const override { return goals; }
};

struct CountingWatcher final : AllotmentWatcher {
  void allotments_applied() override { ++applied; }
  int applied = 0;
};

class PacingRoundsTest : public ::testing::Test {
 protected:
  void run_loop_for_ms(int64_t ms) {
    clock.advance(std::chrono::milliseconds(ms));
    wheel.advance(clock.monotonic_ms());
  }

  runtime::ManualClock clock;
  runtime::TimerWheel wheel{clock.monotonic_ms(), 1};
  CorePacing book;
  SwappedGoals goals;
  CountingWatcher watcher;
  // One core, embedded mode: no channel, no peers, the node's plan its budget.
  NodeBudget budget;
  PacingRounds rounds{book, goals, wheel, clock, 0, 1, kHourIntervalS, budget,
                      PacingLinks{.channel = nullptr, .peers = nullptr, .watcher = &watcher}};
  selection::CoreRandom random{1, 0};
};

TEST_F(PacingRoundsTest, TheFirstRoundAllotsEveryGoalOnceTheLoopRuns) {
  goals.goals = {open_asap_goal(kFirstGoalAd)};
  book.set_goals(goals.goals);
  rounds.start();
  EXPECT_FALSE(book.every_goal_allotted());
  run_loop_for_ms(2);
  EXPECT_TRUE(book.every_goal_allotted());
  EXPECT_EQ(watcher.applied, 1);
  EXPECT_TRUE(book.admit(kFirstGoalAd, 0, random));
}

TEST_F(PacingRoundsTest, AGoalNewInASwapIsAllottedAtOnceAndTheOthersKeepTheirSlice) {
  goals.goals = {open_asap_goal(kFirstGoalAd)};
  book.set_goals(goals.goals);
  rounds.start();
  run_loop_for_ms(2);
  ASSERT_TRUE(book.admit(kFirstGoalAd, 0, random));
  book.served(kFirstGoalAd, 0);
  const uint64_t a_left = book.view(kFirstGoalAd)->tokens_left;

  goals.goals = {open_asap_goal(kFirstGoalAd), open_asap_goal(kSwapGoalAd)};
  book.set_goals(goals.goals);
  ASSERT_FALSE(book.every_goal_allotted());
  rounds.allot_new_goals();  // no time passes: at once
  EXPECT_TRUE(book.every_goal_allotted());
  EXPECT_EQ(watcher.applied, 2);
  EXPECT_EQ(book.view(kSwapGoalAd)->tokens_left, 1000u);
  EXPECT_EQ(book.view(kFirstGoalAd)->tokens_left, a_left) << "A's slice is not planned again";
  EXPECT_EQ(book.view(kFirstGoalAd)->since_round.served, 1u) << "nor its tally taken";
}

}  // namespace
}  // namespace decision::pacing
