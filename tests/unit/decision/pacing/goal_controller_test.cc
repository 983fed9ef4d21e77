// One goal's slice plans (docs/pacing.md, "The controller").
#include "decision/pacing/goal_controller.h"

#include "gtest/gtest.h"

namespace decision::pacing {
namespace {

const GoalFlight kFlight{.goal = {.impressions = 1000, .pacing = catalog::Pacing::kEven}, .start_s = 0, .end_s = 1000};

TEST(GoalController, TheFirstSliceMayTakeItsShareOfTheGoalWithoutThrottle) {
  GoalController controller;
  const SlicePlan plan = controller.plan(kFlight, {}, 0, 100);
  EXPECT_EQ(plan.target, 100u);
  EXPECT_EQ(plan.tokens, 100u);
  EXPECT_DOUBLE_EQ(plan.throttle, 1.0);  // nothing known of the traffic yet
  EXPECT_EQ(plan.status, GoalStatus::kOnTrack);
}

TEST(GoalController, WhatWasMissedIsCaughtUpAndBeingAheadSpendsNothing) {
  GoalController controller;
  controller.plan(kFlight, {}, 0, 100);
  const SlicePlan behind = controller.plan(kFlight, {.opportunities = 1000, .admitted = 100, .served = 60, .delivered = 60}, 100, 200);
  EXPECT_EQ(behind.tokens, 200u - 60u);
  GoalController ahead;
  ahead.plan(kFlight, {}, 0, 100);
  const SlicePlan plan = ahead.plan(kFlight, {.opportunities = 1000, .admitted = 300, .served = 300, .delivered = 250}, 100, 200);
  EXPECT_EQ(plan.tokens, 0u);
  EXPECT_DOUBLE_EQ(plan.throttle, 0.0);
}

TEST(GoalController, TheThrottleSpreadsTheBudgetOverTheExpectedServes) {
  GoalController controller;
  controller.plan(kFlight, {}, 0, 100);
  // 1,000 opportunities, half of those let through served: 500 serves expected at full
  // throttle; 100 tokens then need 1 in 5.
  const SlicePlan plan = controller.plan(kFlight, {.opportunities = 1000, .admitted = 100, .served = 50, .delivered = 100}, 100, 200);
  EXPECT_EQ(plan.tokens, 100u);
  EXPECT_NEAR(plan.throttle, 0.2, 1e-9);
}

TEST(GoalController, AMetGoalSpendsNothingMoreAndAnEndedFlightSaysSo) {
  GoalController controller;
  controller.plan(kFlight, {}, 0, 100);
  const SlicePlan met = controller.plan(kFlight, {.delivered = 1000}, 100, 200);
  EXPECT_EQ(met.status, GoalStatus::kMet);
  EXPECT_EQ(met.tokens, 0u);
  GoalController ended;
  EXPECT_EQ(ended.plan(kFlight, {}, 1000, 1100).status, GoalStatus::kEnded);
  GoalController early;
  EXPECT_EQ(early.plan({kFlight.goal, 500, 1500}, {}, 0, 100).status, GoalStatus::kNotStarted);
}

TEST(GoalController, BehindWithEveryOpportunityTakenIsBehind) {
  GoalController controller;
  controller.plan(kFlight, {}, 0, 100);
  const SlicePlan plan = controller.plan(kFlight, {.opportunities = 40, .admitted = 40, .served = 40, .delivered = 40}, 100, 200);
  EXPECT_EQ(plan.status, GoalStatus::kBehind);
}

}  // namespace
}  // namespace decision::pacing
