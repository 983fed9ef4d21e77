// The goals' ledger function on a real Redis Cluster (decision/pacing/redis_ledger/
// pacing_library.h, docs/pacing.md "Across nodes"): what it grants when one node serves and
// another counts the impressions and reports them later. No grant is made against serves
// whose impressions are not reported yet, a goal is never granted past its target, and a
// node's total is counted once however often it is reported.
#include <string>
#include <string_view>
#include <vector>

#include "tests/integration/cluster/goal_ledger_fixture.h"

namespace integration {
namespace {

using decision::pacing::LeaseRequest;

constexpr int kInterval = 60;

class PacingLedger : public GoalLedgerFixture {
 protected:
  void SetUp() override { load_ledger_for(7); }

  // One node's lease, reporting total (what its logs counted in all): {granted, delivered},
  // as the node reads them.
  std::pair<int64_t, int64_t> pace(std::string_view node, int64_t slice, uint64_t total, int64_t settle_slice,
                                   uint64_t settle_tokens, uint64_t settle_served, uint64_t target, uint64_t want) {
    const LeaseRequest request{.ad_id = 7, .slice_id = slice, .interval_s = kInterval, .node_id = node,
                               .delivered_total = total, .settle_slice_id = settle_slice, .settle_tokens = settle_tokens,
                               .settle_served = settle_served, .target = target, .want = want,
                               .keep_until_s = 4102444800};
    std::vector<std::string> args = {"FCALL", "decisiond_pace", "1", key_};
    for (const std::string& a : decision::pacing::redis_ledger::pace_arguments(request)) args.push_back(a);
    const CliReply reply = redis_.cli(args, primary_);
    EXPECT_TRUE(reply) << reply.error;
    const size_t line = reply.out.find('\n');
    if (line == std::string::npos) return {-1, -1};
    return {std::stoll(reply.out.substr(0, line)), std::stoll(reply.out.substr(line + 1))};
  }
};

TEST_F(PacingLedger, ServesWhoseImpressionsAreNotReportedYetAreNotGrantedAgain) {
  // Slice 0: node A takes the whole target of 40.
  EXPECT_EQ(pace("a", 0, 0, 0, 0, 0, 40, 40), std::make_pair(int64_t{40}, int64_t{0}));
  // Slice 1: A settles its 40 (24 served, counted on node B, which has not reported): only
  // 16 may still be granted.
  EXPECT_EQ(pace("a", kInterval, 0, 0, 40, 24, 40, 40), std::make_pair(int64_t{16}, int64_t{0}));
  // B reports the 24: with A's 16 still in flight, nothing is left.
  EXPECT_EQ(pace("b", kInterval, 24, 0, 0, 0, 40, 40), std::make_pair(int64_t{0}, int64_t{24}));
  // Slice 2: A settles its 16 (all served, counted on A itself) and reports them: 0 left.
  EXPECT_EQ(pace("a", 2 * kInterval, 16, kInterval, 16, 16, 40, 40), std::make_pair(int64_t{0}, int64_t{40}));
}

TEST_F(PacingLedger, WhatANodeLeftUnusedIsGrantedAgain) {
  EXPECT_EQ(pace("a", 0, 0, 0, 0, 0, 100, 30), std::make_pair(int64_t{30}, int64_t{0}));
  EXPECT_EQ(pace("b", 0, 0, 0, 0, 0, 100, 100), std::make_pair(int64_t{70}, int64_t{0}));
  // Next slice: the first node served 10 and reports their impressions itself; the second
  // served nothing. What was not served is free again.
  EXPECT_EQ(pace("a", kInterval, 10, 0, 30, 10, 100, 100), std::make_pair(int64_t{20}, int64_t{10}));
  EXPECT_EQ(pace("b", kInterval, 0, 0, 70, 0, 100, 100), std::make_pair(int64_t{70}, int64_t{10}));
}

TEST_F(PacingLedger, ANodeThatNeverSettlesHoldsNothingBackAfterTwoSlices) {
  EXPECT_EQ(pace("a", 0, 0, 0, 0, 0, 50, 50), std::make_pair(int64_t{50}, int64_t{0}));  // then the node dies
  EXPECT_EQ(pace("b", kInterval, 0, 0, 0, 0, 50, 50), std::make_pair(int64_t{0}, int64_t{0}));
  EXPECT_EQ(pace("b", 2 * kInterval, 0, 0, 0, 0, 50, 50), std::make_pair(int64_t{50}, int64_t{0}));
}

TEST_F(PacingLedger, ANodesTotalIsCountedOnceHoweverOftenItIsReported) {
  // want 0: only the counting is looked at.
  EXPECT_EQ(pace("a", 0, 10, 0, 0, 0, 1000, 0).second, 10);
  // The same total again: a restart reporting its logs, a lease whose answer was lost.
  EXPECT_EQ(pace("a", 0, 10, 0, 0, 0, 1000, 0).second, 10);
  EXPECT_EQ(pace("b", 0, 5, 0, 0, 0, 1000, 0).second, 15);
  EXPECT_EQ(pace("a", kInterval, 12, 0, 0, 0, 1000, 0).second, 17);
  // A lower total (a log that lost its last lines at a kill) takes nothing back; what it
  // counts again up to the highest total told is not counted twice.
  EXPECT_EQ(pace("a", kInterval, 8, 0, 0, 0, 1000, 0).second, 17);
  EXPECT_EQ(pace("a", 2 * kInterval, 13, 0, 0, 0, 1000, 0).second, 18);
}

}  // namespace
}  // namespace integration
