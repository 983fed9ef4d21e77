// Delivery goals across three nodes sharing a Redis Cluster (docs/pacing.md, "Across
// nodes"): the nodes together meet an asap goal, not three times it, each impression
// decided on one node and called on another; the goal's state is in the cluster.
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

}  // namespace
}  // namespace integration
