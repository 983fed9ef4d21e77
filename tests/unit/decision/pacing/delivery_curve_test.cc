// The curves a goal is paced to (docs/pacing.md, "The curve").
#include "decision/pacing/delivery_curve.h"

#include "gtest/gtest.h"

namespace decision::pacing {
namespace {

using catalog::Pacing;

TEST(DeliveryCurve, EvenIsTheFlightShare) {
  for (double s : {0.0, 0.25, 0.5, 0.9, 1.0}) EXPECT_DOUBLE_EQ(target_share(Pacing::kEven, s), s);
}

TEST(DeliveryCurve, FrontloadedIsAheadOfEvenInsideTheFlightAndEqualAtItsEnds) {
  EXPECT_DOUBLE_EQ(target_share(Pacing::kFrontloaded, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(target_share(Pacing::kFrontloaded, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(target_share(Pacing::kFrontloaded, 0.5), 0.625);  // 25% ahead at mid-flight
  for (double s = 0.05; s < 1.0; s += 0.05) EXPECT_GT(target_share(Pacing::kFrontloaded, s), s);
}

TEST(DeliveryCurve, AsapAimsAtTheWholeGoalFromTheStart) {
  EXPECT_DOUBLE_EQ(target_share(Pacing::kAsap, 0.0), 1.0);
}

TEST(DeliveryCurve, TheFlightShareIsClampedToTheFlight) {
  EXPECT_DOUBLE_EQ(flight_share(100, 200, 50), 0.0);
  EXPECT_DOUBLE_EQ(flight_share(100, 200, 150), 0.5);
  EXPECT_DOUBLE_EQ(flight_share(100, 200, 250), 1.0);
}

TEST(DeliveryCurve, TheTargetIsRoundedUpAndNeverPastTheGoal) {
  const catalog::DeliveryGoal goal{.impressions = 1000, .pacing = Pacing::kEven};
  EXPECT_EQ(target_at(goal, 0, 3, 1), 334u);
  EXPECT_EQ(target_at(goal, 0, 3, 3), 1000u);
  EXPECT_EQ(target_at(goal, 0, 3, 99), 1000u);
}

}  // namespace
}  // namespace decision::pacing
