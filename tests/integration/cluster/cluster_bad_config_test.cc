// Cluster mode's bad configurations (docs/cluster.md, docs/flags.md): a flag that cannot
// work is exit 2 with one line naming it; a cap store that cannot be reached, is not a
// cluster, or refuses the password leaves the node serving, its capped ads held back (fail
// closed), the state logged and counted.
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {
namespace {

TEST(CapsClusterConfig, AMalformedStoreIsExitTwo) {
  for (const char* store : {"redis://", "redis://127.0.0.1", "redis://127.0.0.1:0", "redis://127.0.0.1:99999",
                            "redis://cache.example:6379", "http://127.0.0.1:6379", "redis://127.0.0.1:6379,"}) {
    ServerProcess server(standard_flags({std::string("--caps-store=") + store}));
    const std::optional<ExitStatus> status = server.wait_for_exit();
    ASSERT_TRUE(status) << store;
    EXPECT_EQ(status->code, 2) << store << ": " << server.stderr_text();
    EXPECT_NE(server.stderr_text().find("--caps-store"), std::string::npos) << server.stderr_text();
  }
}

TEST(CapsClusterConfig, APasswordFileOthersCanReadIsExitTwo) {
  TempFile password("password", "secret\n");
  chmod(password.path().c_str(), 0644);
  ServerProcess server(standard_flags({"--caps-store=redis://127.0.0.1:7000",
                                       "--caps-store-password-file=" + password.path()}));
  const std::optional<ExitStatus> status = server.wait_for_exit();
  ASSERT_TRUE(status);
  EXPECT_EQ(status->code, 2);
  EXPECT_NE(server.stderr_text().find("--caps-store-password-file"), std::string::npos) << server.stderr_text();
}

// The node serves; a user's capped ads are held back, the uncapped one serves.
// Until the node's stderr holds text: the store's refusal is said when its client meets it,
// on its own schedule, which a decision failing closed does not wait for.
bool said_within(ServerProcess& node, std::string_view text, std::chrono::seconds timeout = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (node.stderr_text().find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

void expect_fail_closed(ClusterNodes& nodes) {
  for (int i = 0; i < 3; ++i) {
    const CurlReply reply = decide(nodes.node(0), "some-user", 3);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) EXPECT_EQ(c.ad_id, "ad_3") << reply.body;
  }
  const std::string page = scrape_metrics(nodes.node(0));
  EXPECT_GE(sum_samples(page, "decisiond_caps_store_unavailable_total", {}).value_or(0), 3.0) << page;
}

TEST(CapsClusterConfig, AnUnreachableStoreLeavesTheNodeServingWithoutCappedAds) {
  ClusterNodes nodes(1, "redis://127.0.0.1:1");
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  expect_fail_closed(nodes);
}

TEST(CapsClusterConfig, ARedisThatIsNotAClusterIsLoggedAndFailsClosed) {
  RedisServer plain;
  ASSERT_TRUE(plain.ok()) << plain.error();
  ClusterNodes nodes(1, plain.url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  expect_fail_closed(nodes);
  EXPECT_TRUE(said_within(nodes.node(0), "not_cluster")) << nodes.node(0).stderr_text();
}

TEST(CapsClusterConfig, AWrongPasswordIsLoggedAndFailsClosed) {
  RedisClusterOptions options;
  options.password = "right-password";
  RedisCluster redis(options);
  ASSERT_TRUE(redis.ok()) << redis.error();
  TempFile password("password", "wrong-password\n");
  chmod(password.path().c_str(), 0600);
  ClusterNodes nodes(1, redis.seed_url(), {"--caps-store-password-file=" + password.path()});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  expect_fail_closed(nodes);
  EXPECT_TRUE(said_within(nodes.node(0), "auth")) << nodes.node(0).stderr_text();
}

TEST(CapsClusterConfig, TheRightPasswordServesCappedAds) {
  RedisClusterOptions options;
  options.password = "right-password";
  RedisCluster redis(options);
  ASSERT_TRUE(redis.ok()) << redis.error();
  TempFile password("password", "right-password\n");
  chmod(password.path().c_str(), 0600);
  ClusterNodes nodes(1, redis.seed_url(), {"--caps-store-password-file=" + password.path()});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  const CurlReply reply = decide(nodes.node(0), "some-user", 3);
  std::set<std::string> ads;
  for (const CreativeTokens& c : tokens_of(reply.body)) ads.insert(c.ad_id);
  EXPECT_EQ(ads.count("ad_1"), 1u) << reply.body;
}

// Redis's default makes every primary refuse every key while one primary is down: the node
// serves, says so once and shows it, so the operator can set it to no (docs/cluster.md).
TEST(CapsClusterConfig, AClusterThatRequiresFullCoverageIsSaidAndShown) {
  RedisCluster redis;
  ASSERT_TRUE(redis.ok()) << redis.error();
  for (const RedisClusterNode& n : redis.nodes()) {
    ASSERT_TRUE(redis.cli({"CONFIG", "SET", "cluster-require-full-coverage", "yes"}, n.port).ok) << redis.error();
  }
  ClusterNodes nodes(1, redis.seed_url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  EXPECT_TRUE(said_within(nodes.node(0), "cluster-require-full-coverage is yes")) << nodes.node(0).stderr_text();
  // Each core hears each primary's answer on its own connection: at least the three primaries
  // on core 0, in time.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::string page;
  do {
    page = scrape_metrics(nodes.node(0));
    if (sum_samples(page, "decisiond_redis_full_coverage_nodes", {{"core", "0"}}).value_or(0) >= 3.0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  } while (std::chrono::steady_clock::now() < deadline);
  EXPECT_GE(sum_samples(page, "decisiond_redis_full_coverage_nodes", {{"core", "0"}}).value_or(0), 3.0) << page;
}

TEST(CapsClusterConfig, AClusterThatServesWhatItCoversSaysNothing) {
  RedisCluster redis;  // the fixture sets cluster-require-full-coverage no, as docs/cluster.md asks
  ASSERT_TRUE(redis.ok()) << redis.error();
  ClusterNodes nodes(1, redis.seed_url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  const std::string page = scrape_metrics(nodes.node(0));
  EXPECT_EQ(sum_samples(page, "decisiond_redis_full_coverage_nodes", {}).value_or(-1), 0.0) << page;
  EXPECT_EQ(nodes.node(0).stderr_text().find("cluster-require-full-coverage"), std::string::npos);
}

}  // namespace
}  // namespace integration
