#pragma once
// A test with a Redis Cluster of its own (six redis-server processes on loopback,
// tests/integration/redis_cluster/), up before the test's body runs and stopped after it.
#include "gtest/gtest.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {

class WithRedisCluster : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(redis_.ok()) << redis_.error(); }
  RedisCluster redis_;
};

}  // namespace integration
