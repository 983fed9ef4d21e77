// The goals' ledger function on a real Redis Cluster (decision/pacing/redis_ledger/
// pacing_library.h, docs/pacing.md "Across nodes"): what it grants when one node serves and
// another counts the impressions and reports them later. No grant is made against serves
// whose impressions are not reported yet, and a goal is never granted past its target.
#include <string>
#include <vector>

#include "tests/integration/cluster/goal_ledger_fixture.h"

namespace integration {
namespace {

using decision::pacing::LeaseRequest;

constexpr int kInterval = 60;

class PacingLedger : public GoalLedgerFixture {
 protected:
  void SetUp() override { load_ledger_for(7); }

  // One node's lease: {granted, delivered}, as the node reads them.
  std::pair<int64_t, int64_t> pace(int64_t slice, uint64_t delta, int64_t settle_slice, uint64_t settle_tokens,
                                   uint64_t settle_served, uint64_t target, uint64_t want) {
    const LeaseRequest request{.ad_id = 7, .slice_id = slice, .interval_s = kInterval, .delivered_delta = delta,
                               .settle_slice_id = settle_slice, .settle_tokens = settle_tokens,
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
  EXPECT_EQ(pace(0, 0, 0, 0, 0, 40, 40), std::make_pair(int64_t{40}, int64_t{0}));
  // Slice 1: A settles its 40 (24 served, counted on node B, which has not reported): only
  // 16 may still be granted.
  EXPECT_EQ(pace(kInterval, 0, 0, 40, 24, 40, 40), std::make_pair(int64_t{16}, int64_t{0}));
  // B reports the 24: with A's 16 still in flight, nothing is left.
  EXPECT_EQ(pace(kInterval, 24, 0, 0, 0, 40, 40), std::make_pair(int64_t{0}, int64_t{24}));
  // Slice 2: A settles its 16 (all served, reported by B in the same round): 0 left.
  EXPECT_EQ(pace(2 * kInterval, 16, kInterval, 16, 16, 40, 40), std::make_pair(int64_t{0}, int64_t{40}));
}

TEST_F(PacingLedger, WhatANodeLeftUnusedIsGrantedAgain) {
  EXPECT_EQ(pace(0, 0, 0, 0, 0, 100, 30), std::make_pair(int64_t{30}, int64_t{0}));
  EXPECT_EQ(pace(0, 0, 0, 0, 0, 100, 100), std::make_pair(int64_t{70}, int64_t{0}));
  // Next slice: the first node served 10 and reports their impressions itself; the second
  // served nothing. What was not served is free again.
  EXPECT_EQ(pace(kInterval, 10, 0, 30, 10, 100, 100), std::make_pair(int64_t{20}, int64_t{10}));
  EXPECT_EQ(pace(kInterval, 0, 0, 70, 0, 100, 100), std::make_pair(int64_t{70}, int64_t{10}));
}

TEST_F(PacingLedger, ANodeThatNeverSettlesHoldsNothingBackAfterTwoSlices) {
  EXPECT_EQ(pace(0, 0, 0, 0, 0, 50, 50), std::make_pair(int64_t{50}, int64_t{0}));  // then the node dies
  EXPECT_EQ(pace(kInterval, 0, 0, 0, 0, 50, 50), std::make_pair(int64_t{0}, int64_t{0}));
  EXPECT_EQ(pace(2 * kInterval, 0, 0, 0, 0, 50, 50), std::make_pair(int64_t{50}, int64_t{0}));
}

}  // namespace
}  // namespace integration
