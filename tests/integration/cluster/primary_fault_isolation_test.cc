// One primary's fault stays with its own slots (docs/cluster.md "Failure policy"): while a
// primary does not answer, through its failover and back, users whose slots live on the
// healthy primaries are decided with their capped ads and their impressions are counted at
// once, as if nothing happened.
#include <signal.h>

#include <chrono>
#include <set>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_load.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {
namespace {

class PrimaryFaultIsolation : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { ASSERT_TRUE(redis_.ok()) << redis_.error(); }
  RedisCluster redis_;
};

// Paused (SIGSTOP: connections open, nothing answered) or killed (SIGKILL: refused), for as
// long as the cluster takes to fail it over.
TEST_P(PrimaryFaultIsolation, UsersOnHealthyPrimariesAreServedAndCountedThroughAnotherPrimarysFailover) {
  const int fault = GetParam();
  ClusterNodes nodes(1, redis_.seed_url(), {"--caps-timeout=100ms"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  const uint16_t failing = redis_.primary_ports().at(0);
  // Fresh users (no cap holds them back) whose slots the failing primary does not serve.
  std::vector<std::string> healthy_users;
  for (int i = 0; healthy_users.size() < 400; ++i) {
    const std::string user = "healthy-" + std::to_string(i);
    const std::optional<uint16_t> primary = redis_.primary_for_key(user_hash_key(user));
    ASSERT_TRUE(primary) << redis_.error();
    if (*primary != failing) healthy_users.push_back(user);
  }
  ASSERT_TRUE(redis_.kill_node(failing, fault)) << redis_.error();
  const auto fault_ends = std::chrono::steady_clock::now() + std::chrono::seconds(4);
  size_t decided = 0;
  size_t held_back = 0;
  size_t impressions = 0;
  ImpressionIdentities identities(nodes.state_dir(0));
  std::set<std::string> impressed;
  for (const std::string& user : healthy_users) {
    if (std::chrono::steady_clock::now() > fault_ends) break;
    const CurlReply reply = decide(nodes.node(0), user, 3);
    ASSERT_EQ(reply.status, 200) << reply.body;
    ++decided;
    bool capped_served = false;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id != "ad_1") continue;
      capped_served = true;
      ASSERT_EQ(call_tracking(nodes.node(0), c.impression).status, 204);
      impressed.insert(identities.of(c.impression));
      ++impressions;
    }
    held_back += capped_served ? 0 : 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (fault == SIGSTOP) {
    ASSERT_TRUE(redis_.kill_node(failing, SIGCONT)) << redis_.error();
  } else {
    ASSERT_TRUE(redis_.restart_node(failing)) << redis_.error();
  }
  ASSERT_TRUE(redis_.wait_until_settled()) << redis_.error();
  ASSERT_GT(decided, 100u);
  EXPECT_EQ(held_back, 0u) << "of " << decided << " decisions for users on healthy primaries";
  // Each attempt's unapplied line is written ahead; an attempt answered in time has its
  // reapplied line, and none was kept (the node's count of those not taken in time).
  size_t answered = 0;
  for (const LogLine& l : nodes.all_lines()) {
    answered += (l.kind == "impression" && l.store == "reapplied" && impressed.count(l.token) > 0) ? 1 : 0;
  }
  EXPECT_EQ(answered, impressions);
  const double kept = sum_samples(scrape_metrics(nodes.node(0)), "decisiond_shared_impressions_unapplied_total", {})
                          .value_or(-1);
  EXPECT_EQ(kept, 0.0) << "of " << impressions << " impressions of users on healthy primaries";
}

INSTANTIATE_TEST_SUITE_P(PausedOrKilled, PrimaryFaultIsolation, ::testing::Values(SIGSTOP, SIGKILL),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == SIGSTOP ? "Paused" : "Killed");
                         });

}  // namespace
}  // namespace integration
