// Delivery goals across nodes sharing a Redis Cluster (docs/pacing.md, "Across nodes"):
// the nodes together meet an asap goal, not three times it, each impression decided on one
// node and called on another; the goal's state is in the cluster. A node is ready only once
// its first lease has answered, and what it counted before a SIGKILL reaches the ledger
// once, from its event log, at the restart.
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "decision/pacing/redis_ledger/pacing_library.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/paced_catalog.h"
#include "tests/integration/readyz.h"
#include "tests/integration/redis_cluster/loopback_ports.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {
namespace {

constexpr int kAsapGoal = 40;

TEST(PacingCluster, ThreeNodesTogetherMeetAnAsapGoalOnce) {
  RedisCluster redis;
  ASSERT_TRUE(redis.ok()) << redis.error();
  const TempFile catalog("paced.json", paced_catalog_json(R"("end": "2099-01-01T00:00:00Z",)", kAsapGoal));
  ClusterNodes nodes(3, redis.seed_url(), {"--catalog=" + catalog.path(), "--pacing-interval=1s"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  const std::vector<ServerProcess*> all = {&nodes.node(0), &nodes.node(1), &nodes.node(2)};

  const int counted = serve_paced_ad(all, "cluster-paced-", kAsapGoal, std::chrono::seconds(30));
  EXPECT_EQ(counted, kAsapGoal) << "the goal was not met in 30 s";
  const auto print_pacing_metrics = [&] {
    for (ServerProcess* node : all) {
      const std::string page = scrape_metrics(*node);
      for (std::string_view family : {"decisiond_pacing_", "decisiond_redis_cluster_state", "decisiond_shared_impressions", "decisiond_impressions_"}) {
        for (size_t at = page.find(family); at != std::string::npos; at = page.find(family, at + 1)) {
          if (at == 0 || page[at - 1] == '\n') std::printf("%s\n", page.substr(at, page.find('\n', at) - at).c_str());
        }
      }
    }
  };
  // Two slices on: no node serves the ad any more, and none counts one more impression.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  EXPECT_EQ(serve_paced_ad(all, "cluster-after-", 1, std::chrono::seconds(3)), 0) << "served past the goal";
  for (ServerProcess* node : all) {
    EXPECT_EQ(wait_for_metric(*node, "decisiond_pacing_delivered_impressions", {{"ad", "1"}}, kAsapGoal), kAsapGoal);
    EXPECT_EQ(wait_for_metric(*node, "decisiond_pacing_goals", {{"status", "met"}}, 1), 1);
  }
  // What each node's event log counted of ad 1 (first sightings; cluster mode logs an
  // impression the store missed as unapplied, then reapplied): the ledger's count is their sum.
  size_t logged = 0;
  for (size_t n = 0; n < nodes.size(); ++n) {
    size_t here = 0;
    for (const LogLine& l : read_event_log(nodes.state_dir(n))) {
      if (l.kind == "impression" && l.ad == 1 && !l.duplicate && l.store != "unapplied") ++here;
    }
    std::printf("[ PacingCluster ] node %zu logged %zu counted impressions of ad 1\n", n, here);
    logged += here;
  }
  EXPECT_EQ(logged, static_cast<size_t>(kAsapGoal));
  if (HasFailure()) print_pacing_metrics();
  // The cluster's count, read from the goal's own slot.
  const std::string key = decision::pacing::redis_ledger::pace_key(1);
  const std::optional<uint16_t> primary = redis.primary_for_key(key);
  ASSERT_TRUE(primary) << redis.error();
  const CliReply stored = redis.cli({"HGET", key, "delivered"}, *primary);
  ASSERT_TRUE(stored) << stored.error;
  EXPECT_EQ(stored.out, std::to_string(kAsapGoal));
}

// The cluster's count of ad 1's goal (HGET delivered on its own slot), or -1.
int64_t ledger_delivered(RedisCluster& redis) {
  const std::string key = decision::pacing::redis_ledger::pace_key(1);
  const std::optional<uint16_t> primary = redis.primary_for_key(key);
  EXPECT_TRUE(primary) << redis.error();
  if (!primary) return -1;
  const CliReply stored = redis.cli({"HGET", key, "delivered"}, *primary);
  EXPECT_TRUE(stored) << stored.error;
  return stored && !stored.out.empty() ? std::stoll(stored.out) : -1;
}

// Counted impressions of ad 1 in a node's event log (first sightings the store answered).
size_t logged_counted_of_ad_1(const std::string& state_dir) {
  size_t counted = 0;
  for (const LogLine& l : read_event_log(state_dir)) {
    if (l.kind == "impression" && l.ad == 1 && !l.duplicate && l.store != "unapplied") ++counted;
  }
  return counted;
}

// Until the node's log holds wanted counted impressions of ad 1 (its flush interval).
bool wait_for_logged(const std::string& state_dir, size_t wanted) {
  const auto deadline = std::chrono::steady_clock::now() + kStateTimeout;
  while (logged_counted_of_ad_1(state_dir) < wanted) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // polling interval only
  }
  return logged_counted_of_ad_1(state_dir) == wanted;
}

// An hour's interval: no round but the one at start reports anything while the test runs,
// so only the restart's report can bring what was counted before a kill to the ledger.
constexpr int kLargeGoal = 100000;

TEST(PacingCluster, DecisionsRightAfterReadyServeTheGoalsAd) {
  RedisCluster redis;
  ASSERT_TRUE(redis.ok()) << redis.error();
  const TempFile catalog("paced.json", sole_paced_ad_catalog_json("paced-sole-1", kLargeGoal));
  ClusterNodes nodes(1, redis.seed_url(), {"--catalog=" + catalog.path(), "--pacing-interval=1h"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(wait_for_readyz(nodes.node(0), 200));
  EXPECT_EQ(decisions_serving_ad_1(nodes.node(0), "first-user-", 40), 40);
  const std::string explained = explain_home_top(nodes.node(0), "first-explained");
  EXPECT_NE(explained.find(R"("allotted":true)"), std::string::npos) << explained;
}

// The choice docs/pacing.md "Readiness" states: a dead store must not keep a node unready.
// Its first lease is refused or times out (1 s), the goal is allotted nothing on every
// core (fail closed), and the node is ready.
TEST(PacingCluster, ANodeWhoseStoreIsDownIsReadyOnceItsFirstLeaseHasFailed) {
  const std::vector<uint16_t> ports = free_loopback_ports(1);
  ASSERT_EQ(ports.size(), 1u);
  const TempFile catalog("paced.json", sole_paced_ad_catalog_json("paced-sole-1", kLargeGoal));
  ClusterNodes nodes(1, "redis://127.0.0.1:" + std::to_string(ports[0]),
                     {"--catalog=" + catalog.path(), "--pacing-interval=1h"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(wait_for_readyz(nodes.node(0), 200));
  const std::string page = scrape_metrics(nodes.node(0));
  EXPECT_GE(sum_samples(page, "decisiond_pacing_lease_failures_total", {}).value_or(0), 1) << page;
  EXPECT_EQ(decisions_serving_ad_1(nodes.node(0), "store-down-user-", 5), 0) << "nothing granted: fail closed";
  const std::string explained = explain_home_top(nodes.node(0), "store-down-explained");
  EXPECT_NE(explained.find(R"("allotted":true)"), std::string::npos) << explained;
}

TEST(PacingCluster, WhatANodeCountedBeforeASigkillReachesTheLedgerOnceAtEachRestart) {
  RedisCluster redis;
  ASSERT_TRUE(redis.ok()) << redis.error();
  const TempFile catalog("paced.json", sole_paced_ad_catalog_json("paced-sole-1", kLargeGoal));
  ClusterNodes nodes(1, redis.seed_url(),
                     {"--catalog=" + catalog.path(), "--pacing-interval=1h", "--events-flush=50ms"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(wait_for_readyz(nodes.node(0), 200));
  EXPECT_EQ(ledger_delivered(redis), 0);

  // Fifteen serves. (Their tokens, granted to this run, stay in flight in the ledger for two
  // slices after it dies: the restarted node counts the last five impressions, late.)
  std::vector<std::string> impressions;
  for (int i = 0; i < 15; ++i) {
    for (const CreativeTokens& c : tokens_of(decide(nodes.node(0), "killed-user-" + std::to_string(i), 1).body)) {
      if (c.ad_id == "ad_1") impressions.push_back(c.impression);
    }
  }
  ASSERT_EQ(impressions.size(), 15u);

  // Ten counted, in the log, not reported (the next round is an hour away): then killed.
  for (size_t i = 0; i < 10; ++i) ASSERT_EQ(call_tracking(nodes.node(0), impressions[i]).status, 204);
  ASSERT_TRUE(wait_for_logged(nodes.state_dir(0), 10));
  ASSERT_TRUE(nodes.restart(0, SIGKILL)) << nodes.node(0).start_error();
  ASSERT_TRUE(wait_for_readyz(nodes.node(0), 200));
  EXPECT_EQ(ledger_delivered(redis), 10) << "the restart reports what the log counted";

  // Five more counted by the restarted node, killed again: the second restart adds those
  // five, not the ten again.
  for (size_t i = 10; i < 15; ++i) ASSERT_EQ(call_tracking(nodes.node(0), impressions[i]).status, 204);
  ASSERT_TRUE(wait_for_logged(nodes.state_dir(0), 15));
  ASSERT_TRUE(nodes.restart(0, SIGKILL)) << nodes.node(0).start_error();
  ASSERT_TRUE(wait_for_readyz(nodes.node(0), 200));
  EXPECT_EQ(ledger_delivered(redis), 15);

  // Nothing new: a third restart, and a graceful one, add nothing.
  ASSERT_TRUE(nodes.restart(0, SIGKILL)) << nodes.node(0).start_error();
  ASSERT_TRUE(wait_for_readyz(nodes.node(0), 200));
  EXPECT_EQ(ledger_delivered(redis), 15);
  ASSERT_TRUE(nodes.restart(0, SIGTERM)) << nodes.node(0).start_error();
  ASSERT_TRUE(wait_for_readyz(nodes.node(0), 200));
  EXPECT_EQ(ledger_delivered(redis), 15);
}

}  // namespace
}  // namespace integration
