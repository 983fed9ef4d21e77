// The goals' ledger function on a real Redis Cluster (decision/pacing/redis_ledger/
// pacing_library.h, docs/pacing.md "Across nodes"): what it grants when one node serves and
// another counts the impressions and reports them later. No grant is made against serves
// whose impressions are not reported yet, and a goal is never granted past its target.
#include <string>
#include <vector>

#include "decision/pacing/redis_ledger/pacing_library.h"
#include "decision/pacing/redis_ledger/redis_goal_ledger.h"
#include "gtest/gtest.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {
namespace {

using decision::pacing::redis_ledger::RedisGoalLedger;

constexpr int kInterval = 60;

class PacingLedger : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(redis_.ok()) << redis_.error();
    key_ = RedisGoalLedger::key_of(7);
    const std::optional<uint16_t> primary = redis_.primary_for_key(key_);
    ASSERT_TRUE(primary) << redis_.error();
    primary_ = *primary;
    const CliReply loaded = redis_.cli(
        {"FUNCTION", "LOAD", "REPLACE", std::string(decision::pacing::redis_ledger::pacing_library())}, primary_);
    ASSERT_TRUE(loaded) << loaded.error;
  }

  // One node's lease: {granted, delivered}, as the node reads them.
  std::pair<int64_t, int64_t> pace(int64_t slice, int64_t delta, int64_t settle_slice, int64_t settle_tokens,
                                   int64_t settle_served, int64_t target, int64_t want) {
    const CliReply reply = redis_.cli({"FCALL", "decisiond_pace", "1", key_, std::to_string(slice),
                                       std::to_string(kInterval), std::to_string(delta), std::to_string(settle_slice),
                                       std::to_string(settle_tokens), std::to_string(settle_served),
                                       std::to_string(target), std::to_string(want), "4102444800"},
                                      primary_);
    EXPECT_TRUE(reply) << reply.error;
    const size_t line = reply.out.find('\n');
    if (line == std::string::npos) return {-1, -1};
    return {std::stoll(reply.out.substr(0, line)), std::stoll(reply.out.substr(line + 1))};
  }

  RedisCluster redis_;
  std::string key_;
  uint16_t primary_ = 0;
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
