#pragma once
// A Redis Cluster holding the goals' ledger function, for the tests that call it themselves
// (docs/pacing.md, "Across nodes"): the goal's key, its primary, the library loaded there.
#include <cstdint>
#include <string>

#include "decision/pacing/redis_ledger/pacing_library.h"
#include "gtest/gtest.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {

class GoalLedgerFixture : public ::testing::Test {
 protected:
  // Loads decisiond_pacing on the primary of ad_id's goal key (a fatal failure otherwise).
  void load_ledger_for(uint64_t ad_id) {
    ASSERT_TRUE(redis_.ok()) << redis_.error();
    key_ = decision::pacing::redis_ledger::pace_key(ad_id);
    const std::optional<uint16_t> primary = redis_.primary_for_key(key_);
    ASSERT_TRUE(primary) << redis_.error();
    primary_ = *primary;
    const CliReply loaded = redis_.cli(
        {"FUNCTION", "LOAD", "REPLACE", std::string(decision::pacing::redis_ledger::pacing_library())}, primary_);
    ASSERT_TRUE(loaded) << loaded.error;
  }

  RedisCluster redis_;
  std::string key_;
  uint16_t primary_ = 0;
};

}  // namespace integration
