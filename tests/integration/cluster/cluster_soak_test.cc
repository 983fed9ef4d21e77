// A randomized fault soak of cluster mode (issue 29 point 5; docs/testing.md "The cluster
// soak"): a Redis Cluster of three primaries with a replica each and three decisiond nodes,
// client threads deciding and impressing for a pool of users on every node, while a fault
// thread kills and pauses primaries and kills and restarts nodes on a seeded schedule. Then
// the nodes re-apply what waits, stop with SIGTERM, and every log is read: every request to
// a live node answered, every acknowledged impression counted exactly once, no serve past a
// cap beyond the documented bound, no crash. The seed is printed first; a failing one
// replays with DECISIOND_SOAK_SEED (and DECISIOND_SOAK_SECONDS for the run's length).
#include <signal.h>

#include <cstdio>
#include <sstream>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_load.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/cluster/soak_checks.h"
#include "tests/integration/cluster/soak_faults.h"
#include "tests/integration/cluster/soak_node_directory.h"
#include "tests/integration/cluster/soak_schedule.h"
#include "tests/integration/cluster/soak_traffic.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {
namespace {

constexpr int kNodes = 3;
// Two client threads per node's worth of traffic: enough to keep every node's cores busy
// with decisions waiting on the store, on a 2-core machine running all of it.
constexpr uint32_t kClientThreads = 6;
// A drain takes up to --drain-timeout (5 s) plus the log's last sync: generous beyond it.
constexpr std::chrono::milliseconds kFinalStopTimeout{30000};

// The identities of impressions the cluster holds a key for (dcd:{u:K}:i:<identity>).
std::set<std::string> identities_in_store(RedisCluster& redis) {
  std::set<std::string> identities;
  for (uint16_t port : redis.primary_ports()) {
    const CliReply keys = redis.cli({"KEYS", "dcd:*:i:*"}, port);
    EXPECT_TRUE(keys) << keys.error;
    std::istringstream in(keys.out);
    for (std::string key; std::getline(in, key);) {
      const size_t at = key.rfind(":i:");
      if (at != std::string::npos) identities.insert(key.substr(at + 3));
    }
  }
  return identities;
}

TEST(ClusterSoak, UnderRandomFaultsEveryRequestIsAnsweredEveryAcknowledgedImpressionCountsOnceAndCapsHold) {
  const SoakSettings settings = SoakSettings::from_environment();
  std::printf("[ soak ] seed %llu, %lld s (DECISIOND_SOAK_SEED=%llu to replay)\n",
              static_cast<unsigned long long>(settings.seed), static_cast<long long>(settings.duration_ms / 1000),
              static_cast<unsigned long long>(settings.seed));
  std::fflush(stdout);
  ::testing::Test::RecordProperty("seed", std::to_string(settings.seed));

  RedisCluster redis;
  ASSERT_TRUE(redis.ok()) << redis.error();
  // The store's deadline as operators run it (the default), not the harness's patient one:
  // impressions under a fault are logged unapplied and applied later, as in production.
  ClusterNodes nodes(kNodes, redis.seed_url(), {"--caps-timeout=25ms"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  std::vector<std::string> urls;
  for (size_t n = 0; n < nodes.size(); ++n) {
    ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
    urls.push_back(nodes.node(n).public_url(""));
  }
  NodeDirectory directory(urls);

  std::mt19937_64 random(settings.seed);
  SoakEvidence evidence;
  {
    SoakTraffic traffic(directory, kNodes, nodes.state_dir(0), settings.seed, kClientThreads);
    SoakFaults faults(redis, nodes, directory);
    evidence.faults = faults.carry_out(plan_faults(random, settings.duration_ms), settings.duration_ms);
    evidence.record = traffic.stop();
  }

  // What waits for the store is applied before the logs are read.
  EXPECT_TRUE(redis.wait_until_settled()) << redis.error();
  EXPECT_TRUE(wait_for_empty_backlogs(nodes)) << "impressions still wait for the store";
  evidence.identities_in_store = identities_in_store(redis);
  for (size_t n = 0; n < nodes.size(); ++n) {
    ServerProcess& node = nodes.node(n);
    evidence.ended_before_final_stop.push_back(node.wait_for_exit(std::chrono::milliseconds(0)).has_value());
    node.send_signal(SIGTERM);
    evidence.final_exits.push_back(node.wait_for_exit(kFinalStopTimeout));
  }
  for (size_t n = 0; n < nodes.size(); ++n) {
    for (SoakLine& l : read_soak_lines(nodes.state_dir(n), static_cast<uint32_t>(n))) evidence.lines.push_back(std::move(l));
  }

  const SoakFindings f = check_soak(evidence);
  std::printf("%s", soak_summary(settings.seed, settings.duration_ms, f).c_str());
  std::fflush(stdout);

  ASSERT_GT(f.decisions_answered, 0u);
  ASSERT_GT(f.impressions_acknowledged, 0u);
  EXPECT_GT(evidence.faults.size(), 0u) << "no fault was carried out";
  EXPECT_EQ(f.failed_on_live_node.count, 0u) << "requests to a live node not answered as documented";
  EXPECT_EQ(f.lost_no_line.count, 0u) << "impressions answered 204 with no line on any node";
  EXPECT_EQ(f.lost_never_counted.count, 0u) << "impressions answered 204 never counted";
  EXPECT_EQ(f.never_counted_at_node_kill.count, 0u)
      << "impressions counted by a node killed mid round trip, never settled in its log after its restart";
  EXPECT_EQ(f.decision_lines_lost.count, 0u) << "ads served in a 200 without their decision line";
  EXPECT_EQ(f.doubled.count, 0u) << "impressions counted more than once, no failover to blame";
  EXPECT_EQ(f.store_lost_unattributed.count, 0u) << "identities the store forgot without a failover";
  EXPECT_EQ(f.past_cap_not_allowed.count, 0u) << "serves past a cap beyond the documented bound";
  EXPECT_EQ(f.crashes.count, 0u) << "a node crashed or did not stop cleanly";
  EXPECT_EQ(f.faults_not_healed.count, 0u) << "the fixture could not heal a fault";
}

}  // namespace
}  // namespace integration
