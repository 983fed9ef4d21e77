// Exactly once across restarts in cluster mode (docs/cluster.md "Failure policy"): an
// impression kept for the store is applied again after a restart only while no reapplied
// line settles it, whatever the number of calls kept for one identity.
#include <signal.h>

#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_load.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/cluster/with_redis_cluster.h"

namespace integration {
namespace {

using ClusterRestart = WithRedisCluster;

// The same impression URL called three times on one node while every primary is paused: three
// unapplied lines of one identity, three attempts. Once the store answers, the first is
// counted and the others are repeats; starts after that send none of them again.
TEST_F(ClusterRestart, AnImpressionCalledSeveralTimesWhileTheStoreIsAwayCountsOnceAcrossRestarts) {
  ClusterNodes nodes(1, redis_.seed_url(), {"--caps-timeout=25ms"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  const std::string user = "twice-called-user";
  const CurlReply reply = decide(nodes.node(0), user, 3);
  ASSERT_EQ(reply.status, 200) << reply.body;
  std::string token;
  for (const CreativeTokens& c : tokens_of(reply.body)) {
    if (c.ad_id == "ad_1") token = c.impression;  // the capped ad
  }
  ASSERT_FALSE(token.empty()) << reply.body;
  const std::vector<uint16_t> primaries = redis_.primary_ports();
  for (uint16_t port : primaries) ASSERT_TRUE(redis_.kill_node(port, SIGSTOP)) << redis_.error();
  for (int i = 0; i < 3; ++i) ASSERT_EQ(call_tracking(nodes.node(0), token).status, 204);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // past every deadline
  for (uint16_t port : primaries) ASSERT_TRUE(redis_.kill_node(port, SIGCONT)) << redis_.error();
  ASSERT_TRUE(wait_for_empty_backlogs(nodes)) << "impressions still wait for the store";
  const std::string identity = ImpressionIdentities(nodes.state_dir(0)).of(token);
  ASSERT_FALSE(identity.empty());

  for (int signal : {SIGTERM, SIGKILL, SIGTERM}) {
    ASSERT_TRUE(nodes.restart(0, signal)) << nodes.error();
    ASSERT_TRUE(nodes.wait_connected(0));
    ASSERT_TRUE(wait_for_empty_backlogs(nodes));
    const std::vector<LogLine> lines = nodes.all_lines();
    EXPECT_TRUE(EveryAcknowledgedImpressionCountedOnce({identity}, lines)) << "after a restart by signal " << signal;
    size_t unapplied = 0;
    size_t reapplied = 0;
    for (const LogLine& l : lines) {
      if (l.kind != "impression" || l.token != identity) continue;
      unapplied += l.store == "unapplied" ? 1 : 0;
      reapplied += l.store == "reapplied" ? 1 : 0;
    }
    EXPECT_EQ(unapplied, 3u);
    EXPECT_EQ(reapplied, 3u) << "each attempt applied again once, never again at a start";
  }
}

}  // namespace
}  // namespace integration
