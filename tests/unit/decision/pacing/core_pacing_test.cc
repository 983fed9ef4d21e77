// One core's book of goals (docs/pacing.md, "Across cores"): goals kept at their catalog
// position, found by id when a decision holds a position from before a swap, tallies and
// tokens carried over swaps, goals of an earlier catalog dropped once nothing is left of them.
#include "decision/pacing/core_pacing.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "gtest/gtest.h"

namespace decision::pacing {
namespace {

constexpr uint64_t kAdA = 101;
constexpr uint64_t kAdB = 202;
constexpr uint64_t kAdC = 303;

PacedGoal goal_of(uint64_t ad_id) {
  return {ad_id, {{.impressions = 1000, .pacing = catalog::Pacing::kEven}, 0, 1000}};
}

CoreAllotment allot(uint64_t ad_id, uint64_t tokens, double throttle = 1.0) {
  return {.ad_id = ad_id, .tokens = tokens, .throttle = throttle, .goal = 1000, .status = GoalStatus::kOnTrack};
}

const SliceTally* tally_of(const std::vector<CoreTally>& tallies, uint64_t ad_id) {
  const auto it = std::find_if(tallies.begin(), tallies.end(), [&](const CoreTally& t) { return t.ad_id == ad_id; });
  return it == tallies.end() ? nullptr : &it->tally;
}

class CorePacingTest : public ::testing::Test {
 protected:
  CorePacing book;
  selection::CoreRandom random{1, 0};
};

TEST_F(CorePacingTest, AGoalIsKeptOutUntilARoundAllotsItAndThenSpendsItsTokens) {
  const std::vector<PacedGoal> goals = {goal_of(kAdA), goal_of(kAdB)};
  book.set_goals(goals);
  EXPECT_FALSE(book.admit(kAdA, 0, random));
  ASSERT_TRUE(book.view(kAdA).has_value());
  EXPECT_FALSE(book.view(kAdA)->allotted);

  const std::vector<CoreAllotment> allotments = {allot(kAdA, 2), allot(kAdB, 0)};
  book.apply(allotments);
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(book.admit(kAdA, 0, random));
    book.served(kAdA, 0);
  }
  EXPECT_FALSE(book.admit(kAdA, 0, random));
  EXPECT_FALSE(book.admit(kAdB, 1, random));

  const std::optional<CoreGoalView> a = book.view(kAdA);
  ASSERT_TRUE(a.has_value());
  EXPECT_TRUE(a->allotted);
  EXPECT_EQ(a->tokens_left, 0u);
  EXPECT_EQ(a->since_round.opportunities, 4u);  // one before the round, three after
  EXPECT_EQ(a->since_round.admitted, 2u);
  EXPECT_EQ(a->since_round.served, 2u);
  EXPECT_EQ(book.view(kAdB)->since_round.opportunities, 1u);
}

TEST_F(CorePacingTest, ADecisionHoldingAPositionFromBeforeASwapChargesItsOwnGoal) {
  const std::vector<PacedGoal> before = {goal_of(kAdA), goal_of(kAdB)};
  book.set_goals(before);
  const std::vector<CoreAllotment> allotments = {allot(kAdA, 5), allot(kAdB, 7)};
  book.apply(allotments);

  const std::vector<PacedGoal> after = {goal_of(kAdB), goal_of(kAdA)};  // A moves to 1
  book.set_goals(after);
  ASSERT_TRUE(book.admit(kAdA, 0, random));  // position 0 is B's now
  book.served(kAdA, 0);
  ASSERT_TRUE(book.admit(kAdA, 1, random));
  book.served(kAdA, 1);

  EXPECT_EQ(book.view(kAdA)->tokens_left, 3u);  // tokens kept over the swap, two spent
  EXPECT_EQ(book.view(kAdA)->since_round.served, 2u);
  EXPECT_EQ(book.view(kAdB)->tokens_left, 7u);
  EXPECT_EQ(book.view(kAdB)->since_round.opportunities, 0u);
}

TEST_F(CorePacingTest, TalliesAreTakenOnceAndImpressionsCountedByAnyCoreAreIncluded) {
  const std::vector<PacedGoal> goals = {goal_of(kAdA)};
  book.set_goals(goals);
  const std::vector<CoreAllotment> allotments = {allot(kAdA, 10)};
  book.apply(allotments);
  ASSERT_TRUE(book.admit(kAdA, 0, random));
  book.served(kAdA, 0);
  book.counted(kAdA);
  book.counted(kAdA);
  book.counted(kAdC);  // no goal of this book: not counted, nothing kept

  std::vector<CoreTally> tallies;
  book.take_tallies(tallies);
  ASSERT_EQ(tallies.size(), 1u);
  EXPECT_EQ(tallies[0].ad_id, kAdA);
  EXPECT_EQ(tallies[0].tally.opportunities, 1u);
  EXPECT_EQ(tallies[0].tally.admitted, 1u);
  EXPECT_EQ(tallies[0].tally.served, 1u);
  EXPECT_EQ(tallies[0].tally.delivered, 2u);

  book.take_tallies(tallies);
  ASSERT_EQ(tallies.size(), 1u);
  EXPECT_EQ(tallies[0].tally.opportunities + tallies[0].tally.delivered, 0u);
  EXPECT_FALSE(book.view(kAdC).has_value());
}

TEST_F(CorePacingTest, AGoalLeftOutOfANewCatalogStaysUntilARoundFindsNothingOfIt) {
  const std::vector<PacedGoal> before = {goal_of(kAdA), goal_of(kAdB)};
  book.set_goals(before);
  const std::vector<CoreAllotment> both = {allot(kAdA, 5), allot(kAdB, 5)};
  book.apply(both);
  ASSERT_TRUE(book.admit(kAdA, 0, random));
  book.served(kAdA, 0);

  const std::vector<PacedGoal> after = {goal_of(kAdB)};
  book.set_goals(after);
  book.counted(kAdA);  // an impression of a serve from before the swap
  EXPECT_EQ(book.goals(), 2u);
  ASSERT_TRUE(book.view(kAdA).has_value());
  EXPECT_EQ(book.view(kAdA)->tokens_left, 4u);
  ASSERT_TRUE(book.admit(kAdA, 0, random));  // a decision begun on the old catalog
  book.served(kAdA, 0);
  EXPECT_EQ(book.view(kAdB)->since_round.served, 0u);

  // A round that does not allot A: what A saw since the last round is still to report.
  const std::vector<CoreAllotment> only_b = {allot(kAdB, 5)};
  book.apply(only_b);
  ASSERT_TRUE(book.view(kAdA).has_value());
  EXPECT_FALSE(book.view(kAdA)->allotted);
  EXPECT_FALSE(book.admit(kAdA, 0, random));

  std::vector<CoreTally> tallies;
  book.take_tallies(tallies);
  const SliceTally* a = tally_of(tallies, kAdA);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->served, 2u);
  EXPECT_EQ(a->delivered, 1u);

  book.apply(only_b);  // nothing left of A: dropped
  EXPECT_FALSE(book.view(kAdA).has_value());
  EXPECT_EQ(book.goals(), 1u);
  ASSERT_EQ(book.ad_ids().size(), 1u);
  EXPECT_EQ(book.ad_ids()[0], kAdB);
  EXPECT_TRUE(book.admit(kAdB, 0, random));
}

TEST_F(CorePacingTest, AnAllotmentForAGoalThisCoreHasNotSeenIsKeptAndServed) {
  const std::vector<PacedGoal> goals = {goal_of(kAdA)};
  book.set_goals(goals);
  // The coordinating core swapped to a catalog with C before this one did.
  const std::vector<CoreAllotment> allotments = {allot(kAdA, 1), allot(kAdC, 3)};
  book.apply(allotments);
  ASSERT_TRUE(book.view(kAdC).has_value());
  EXPECT_TRUE(book.view(kAdC)->allotted);

  const std::vector<PacedGoal> with_c = {goal_of(kAdC), goal_of(kAdA)};
  book.set_goals(with_c);
  EXPECT_EQ(book.goals(), 2u);
  ASSERT_TRUE(book.admit(kAdC, 0, random));
  book.served(kAdC, 0);
  EXPECT_EQ(book.view(kAdC)->tokens_left, 2u);
  EXPECT_EQ(book.view(kAdA)->tokens_left, 1u);
}

TEST_F(CorePacingTest, ABookIsAllottedOnlyOnceEveryGoalOfItsCatalogHasAnAllotment) {
  EXPECT_TRUE(book.every_goal_allotted()) << "no goal, nothing to wait for";
  const std::vector<PacedGoal> goals = {goal_of(kAdA), goal_of(kAdB)};
  book.set_goals(goals);
  EXPECT_FALSE(book.every_goal_allotted());
  const std::vector<CoreAllotment> only_a = {allot(kAdA, 1)};
  book.apply(only_a);
  EXPECT_FALSE(book.every_goal_allotted());
  const std::vector<CoreAllotment> both = {allot(kAdA, 1), allot(kAdB, 0)};
  book.apply(both);
  EXPECT_TRUE(book.every_goal_allotted()) << "0 tokens is an allotment";
  const std::vector<PacedGoal> with_c = {goal_of(kAdA), goal_of(kAdB), goal_of(kAdC)};
  book.set_goals(with_c);
  EXPECT_FALSE(book.every_goal_allotted()) << "a swap that brings a goal";
}

TEST_F(CorePacingTest, AllotmentsAddedForNewGoalsLeaveTheOthersAsTheyAre) {
  const std::vector<PacedGoal> goals = {goal_of(kAdA)};
  book.set_goals(goals);
  const std::vector<CoreAllotment> a = {allot(kAdA, 2)};
  book.apply(a);
  ASSERT_TRUE(book.admit(kAdA, 0, random));
  book.served(kAdA, 0);

  const std::vector<PacedGoal> with_b = {goal_of(kAdA), goal_of(kAdB)};
  book.set_goals(with_b);
  const std::vector<CoreAllotment> b = {allot(kAdB, 5)};
  book.add(b);
  EXPECT_TRUE(book.every_goal_allotted());
  EXPECT_EQ(book.view(kAdA)->tokens_left, 1u) << "A keeps what is left of its slice";
  EXPECT_EQ(book.view(kAdA)->since_round.served, 1u);
  EXPECT_EQ(book.view(kAdB)->tokens_left, 5u);
  EXPECT_TRUE(book.admit(kAdB, 1, random));
}

TEST_F(CorePacingTest, AThrottleBelowOneLetsThroughAboutThatShare) {
  const std::vector<PacedGoal> goals = {goal_of(kAdA)};
  book.set_goals(goals);
  const std::vector<CoreAllotment> allotments = {allot(kAdA, 1'000'000, 0.25)};
  book.apply(allotments);
  int admitted = 0;
  for (int i = 0; i < 10'000; ++i) admitted += book.admit(kAdA, 0, random) ? 1 : 0;
  EXPECT_GT(admitted, 2'200);
  EXPECT_LT(admitted, 2'800);
  EXPECT_EQ(book.view(kAdA)->since_round.admitted, static_cast<uint64_t>(admitted));
}

}  // namespace
}  // namespace decision::pacing
