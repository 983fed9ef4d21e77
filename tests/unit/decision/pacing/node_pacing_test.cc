// The coordinating core's plan (docs/pacing.md, "Across cores"): tallies summed over cores,
// tokens split by each core's share of the opportunities, never more than the node's budget.
#include "decision/pacing/node_pacing.h"

#include <numeric>

#include "gtest/gtest.h"

namespace decision::pacing {
namespace {

TEST(SplitTokens, SharesFollowTheWeightsAndAddUpToTheTokens) {
  std::vector<uint64_t> out(3);
  const std::vector<uint64_t> weights = {99, 0, 298};  // each plus one: 100, 1, 299 of 400
  split_tokens(100, weights, out);
  EXPECT_EQ(std::accumulate(out.begin(), out.end(), uint64_t{0}), 100u);
  EXPECT_EQ(out[0], 25u);
  EXPECT_EQ(out[1], 0u);
  EXPECT_EQ(out[2], 75u);
}

TEST(SplitTokens, WithoutWeightsTheTokensAreSplitEvenly) {
  std::vector<uint64_t> out(4);
  split_tokens(8, std::vector<uint64_t>(4, 0), out);
  for (uint64_t share : out) EXPECT_EQ(share, 2u);
}

TEST(NodePacing, TalliesOfEveryCoreAreSummedAndTheBudgetIsSplitByOpportunities) {
  NodePacing node(2);
  const std::vector<PacedGoal> goals = {{7, {{.impressions = 1000, .pacing = catalog::Pacing::kEven}, 0, 1000}}};
  std::vector<std::vector<CoreAllotment>> allotments;
  node.plan(goals, 0, 100, allotments);
  const std::vector<CoreTally> core0 = {{7, {.opportunities = 300, .admitted = 30, .served = 30, .delivered = 20}}};
  const std::vector<CoreTally> core1 = {{7, {.opportunities = 100, .admitted = 10, .served = 10, .delivered = 30}}};
  node.add(0, core0);
  node.add(1, core1);
  node.plan(goals, 100, 200, allotments);
  EXPECT_EQ(node.delivered(7), 50u);
  ASSERT_EQ(allotments.size(), 2u);
  ASSERT_EQ(allotments[0].size(), 1u);
  EXPECT_EQ(allotments[0][0].tokens + allotments[1][0].tokens, 200u - 50u);
  EXPECT_GT(allotments[0][0].tokens, 2 * allotments[1][0].tokens);
  EXPECT_EQ(allotments[1][0].delivered, 50u);
  EXPECT_EQ(allotments[1][0].goal, 1000u);
}

TEST(NodePacing, WhatWasCountedOfAnAdNotYetAGoalCountsOnceItBecomesOne) {
  NodePacing node(1);
  // The logs' counts at start, with a catalog that has no goal yet (one from NATS).
  const std::vector<CoreTally> restored = {{7, {.delivered = 40}}};
  node.add(0, restored);
  std::vector<std::vector<CoreAllotment>> allotments;
  node.plan({}, 0, 100, allotments);
  const std::vector<PacedGoal> goals = {{7, {{.impressions = 1000, .pacing = catalog::Pacing::kAsap}, 0, 1000}}};
  node.plan(goals, 50, 100, allotments);
  EXPECT_EQ(node.delivered(7), 40u);
  ASSERT_EQ(allotments[0].size(), 1u);
  EXPECT_EQ(allotments[0][0].tokens, 1000u - 40u);
  node.plan(goals, 100, 200, allotments);
  EXPECT_EQ(node.delivered(7), 40u) << "counted once";
}

TEST(NodePacing, ALeaseReportsWhatTheNodesLogsCountedInAllNotWhatIsNewSinceTheLastReport) {
  NodePacing node(1);
  const std::vector<PacedGoal> goals = {{7, {{.impressions = 1000, .pacing = catalog::Pacing::kAsap}, 0, 1000}}};
  std::vector<std::vector<CoreAllotment>> allotments;
  const std::vector<CoreTally> restored = {{7, {.delivered = 10}}};
  node.add(0, restored);
  node.plan(goals, 0, 100, allotments);
  EXPECT_EQ(node.lease_request(goals[0], 0, 100).delivered_total, 10u);
  const LeaseGrant grant{.tokens = 5, .delivered = 10};
  node.apply_grant(0, goals[0], 0, &grant, allotments);

  const std::vector<CoreTally> counted = {{7, {.opportunities = 5, .admitted = 5, .served = 5, .delivered = 5}}};
  node.add(0, counted);
  node.plan(goals, 100, 200, allotments);
  const LeaseRequest second = node.lease_request(goals[0], 100, 100);
  EXPECT_EQ(second.delivered_total, 15u);
  // Not answered: the next report carries the same total, and what came since.
  node.apply_grant(0, goals[0], 100, nullptr, allotments);
  node.plan(goals, 200, 300, allotments);
  EXPECT_EQ(node.lease_request(goals[0], 200, 100).delivered_total, 15u);
}

}  // namespace
}  // namespace decision::pacing
