// One catalog publish for every node (docs/catalog-publication.md): decisiond-catalog
// publish to a NATS JetStream cluster of three servers, three nodes started with
// --catalog=nats://.../<name> serving each revision, a node started later serving the
// latest, a refused catalog publishing nothing, and what a node does with a revision it
// cannot fetch or build. Times are measured and printed, never asserted.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/cluster/catalog_publication.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/test_catalog.h"

namespace integration {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kAds = 2000;
const std::string kName = "main";

// decisiond-catalog status once its text holds `text` count times (nodes report within a
// report interval of a change), or the last one read at the deadline.
CommandRun status_when(const NatsCluster& nats, const std::string& text, size_t count) {
  const auto deadline = Clock::now() + kRevisionTimeout;
  for (;;) {
    CommandRun status = run_catalog_tool({"status", "--to=" + catalog_url(nats, kName)});
    size_t found = 0;
    for (size_t at = status.out.find(text); at != std::string::npos; at = status.out.find(text, at + 1)) ++found;
    if ((status.exit_code == 0 && found >= count) || Clock::now() >= deadline) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

double metric(const ServerProcess& node, const char* name) {
  return sum_samples(scrape_metrics(node), name, {}).value_or(-1);
}

// Three NATS servers, three nodes waiting for <name>.
struct PublicationCluster {
  NatsCluster nats;
  std::unique_ptr<ClusterNodes> nodes;

  PublicationCluster() {
    if (!nats.ok()) return;
    nodes = std::make_unique<ClusterNodes>(3, "local", std::vector<std::string>{"--catalog=" + catalog_url(nats, kName)});
  }
  ::testing::AssertionResult ok() const {
    if (!nats.ok()) return ::testing::AssertionFailure() << nats.error();
    if (!nodes->ok()) return ::testing::AssertionFailure() << nodes->error();
    return ::testing::AssertionSuccess();
  }
  CommandRun publish(const std::string& catalog_json) {
    TempFile file("catalog.json", catalog_json);
    return run_catalog_tool({"publish", "--to=" + catalog_url(nats, kName), file.path()});
  }
  std::vector<ServerProcess*> all() {
    std::vector<ServerProcess*> every;
    for (size_t i = 0; i < nodes->size(); ++i) every.push_back(&nodes->node(i));
    return every;
  }
  // Where most tests start: every node serving revision 1, a 2,000-ad catalog.
  ::testing::AssertionResult serve_revision_one() {
    if (::testing::AssertionResult up = ok(); !up) return up;
    const CommandRun published = publish(generated_catalog(kAds, 1));
    if (published.exit_code != 0) return ::testing::AssertionFailure() << "publish: " << published.err;
    if (!wait_for_revision(all(), 1)) return ::testing::AssertionFailure() << "revision 1 not served everywhere";
    return ::testing::AssertionSuccess();
  }
};

TEST(CatalogPublication, ACatalogPublishedOnceIsServedByEveryNode) {
  PublicationCluster cluster;
  ASSERT_TRUE(cluster.ok());
  const std::vector<ServerProcess*> nodes = cluster.all();
  for (ServerProcess* node : nodes) EXPECT_EQ(readyz_status(*node), 503) << "no revision yet: unready";

  const std::string catalog = generated_catalog(kAds, 1);
  ASSERT_FALSE(catalog.empty());
  const Clock::time_point started = Clock::now();
  const CommandRun published = cluster.publish(catalog);
  const Clock::time_point tool_done = Clock::now();
  ASSERT_EQ(published.exit_code, 0) << published.err;
  EXPECT_NE(published.out.find("revision 1"), std::string::npos) << published.out;
  ASSERT_TRUE(wait_for_revision(nodes, 1));
  const Clock::time_point all_served = Clock::now();
  const auto ms = [](Clock::duration d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
  std::printf("catalog_publication: %d ads, %zu bytes: publish took %lld ms; every node (3) served it %lld ms after "
              "the publish began (%lld ms after the tool exited)\n",
              kAds, catalog.size(), static_cast<long long>(ms(tool_done - started)),
              static_cast<long long>(ms(all_served - started)), static_cast<long long>(ms(all_served - tool_done)));

  for (ServerProcess* node : nodes) {
    EXPECT_TRUE(wait_for_readyz(*node, 200, kRevisionTimeout)) << node->stderr_text();
    EXPECT_EQ(metric(*node, "decisiond_catalog_ads"), kAds);
    EXPECT_EQ(metric(*node, "decisiond_catalog_refusals_total"), 0);
  }
}

TEST(CatalogPublication, EachNewRevisionIsSwappedInAndANodeStartedLaterGetsTheLatest) {
  PublicationCluster cluster;
  ASSERT_TRUE(cluster.serve_revision_one());
  const std::vector<ServerProcess*> nodes = cluster.all();
  const CommandRun second = cluster.publish(generated_catalog(kAds, 2));
  ASSERT_EQ(second.exit_code, 0) << second.err;
  ASSERT_TRUE(wait_for_revision(nodes, 2));
  for (ServerProcess* node : nodes) {
    EXPECT_EQ(metric(*node, "decisiond_catalog_updates_total"), 3) << "the empty catalog at start, revisions 1 and 2";
  }

  const Clock::time_point started = Clock::now();
  ServerProcess late(standard_flags({"--catalog=" + catalog_url(cluster.nats, kName), "--node-id=late"}));
  ASSERT_TRUE(late.serving()) << late.start_error();
  // Fetched before the node listens when it comes within kFirstRevisionWait (it then starts
  // ready, on revision 2); on a slow machine a little later, through the update loop.
  const bool at_start = served_revision(late) == 2;
  ASSERT_TRUE(wait_for_revision({&late}, 2)) << late.stderr_text();
  EXPECT_TRUE(wait_for_readyz(late, 200, kRevisionTimeout)) << late.stderr_text();
  std::printf("catalog_publication: a node started later served revision 2 %lld ms after its start (%s)\n",
              static_cast<long long>(
                  std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count()),
              at_start ? "when it started serving" : "after it started serving");

  // Every node, the late one too, reports revision 2 through the bucket.
  const CommandRun status = status_when(cluster.nats, "current", 4);
  ASSERT_EQ(status.exit_code, 0) << status.err;
  for (const char* node : {"node0", "node1", "node2", "late"}) {
    EXPECT_NE(status.out.find(std::string(node) + " "), std::string::npos) << status.out;
  }
  std::printf("%s", status.out.c_str());
  const CommandRun json = run_catalog_tool({"status", "--json", "--to=" + catalog_url(cluster.nats, kName)});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_NE(json.out.find("\"latest\":{\"revision\":2,"), std::string::npos) << json.out;
  EXPECT_NE(json.out.find("{\"node\":\"late\",\"state\":\"current\",\"revision\":2,"), std::string::npos) << json.out;
}

TEST(CatalogPublication, ACatalogWithAnErrorIsRefusedByTheToolAndNoNodeChanges) {
  PublicationCluster cluster;
  ASSERT_TRUE(cluster.serve_revision_one());
  const std::vector<ServerProcess*> nodes = cluster.all();

  std::string broken = generated_catalog(kAds, 2);
  const size_t weight = broken.find("\"weight\":");
  ASSERT_NE(weight, std::string::npos);
  broken.insert(weight + 9, "-");  // the first weight negative: 1..1,000,000 only
  const CommandRun refused = cluster.publish(broken);
  EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
  EXPECT_NE(refused.err.find("refused with 1 error(s), nothing published"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("weight"), std::string::npos) << "the builder's message names the field: " << refused.err;

  // Nothing was published: the record still names revision 1, and every node serves it.
  const CommandRun status = run_catalog_tool({"status", "--json", "--to=" + catalog_url(cluster.nats, kName)});
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("\"latest\":{\"revision\":1,"), std::string::npos) << status.out;
  for (ServerProcess* node : nodes) {
    EXPECT_EQ(served_revision(*node), 1);
    EXPECT_EQ(metric(*node, "decisiond_catalog_refusals_total"), 0);
    EXPECT_EQ(metric(*node, "decisiond_catalog_fetches_total"), 1);
  }
}

// A revision the tool would have refused (written by other means): each node keeps what it
// serves, logs and counts the refusal, and reports it; the next good revision is served.
TEST(CatalogPublication, ARevisionANodeCannotBuildKeepsTheOldOneLoggedCountedAndReported) {
  PublicationCluster cluster;
  ASSERT_TRUE(cluster.serve_revision_one());
  const std::vector<ServerProcess*> nodes = cluster.all();

  const RawPublish bad = publish_unchecked(cluster.nats, kName, R"({"revision":"x","ads":[)");
  ASSERT_EQ(bad.error, "");
  for (ServerProcess* node : nodes) {
    EXPECT_TRUE(wait_for_metric(*node, "decisiond_catalog_refusals_total", {}, 1, kRevisionTimeout));
    EXPECT_TRUE(wait_for_log(*node, "revision 2 refused with 1 error(s)")) << node->stderr_text();
    EXPECT_EQ(served_revision(*node), 1);
    EXPECT_EQ(readyz_status(*node), 200) << "it still serves revision 1";
  }
  const CommandRun status = status_when(cluster.nats, "revision 2 failed: refused with 1 error(s)", 3);
  EXPECT_NE(status.out.find("revision 2 failed: refused with 1 error(s)"), std::string::npos) << status.out;
  std::printf("%s", status.out.c_str());

  const RawPublish corrupt = publish_unchecked(cluster.nats, kName, generated_catalog(kAds, 3), true);
  ASSERT_EQ(corrupt.error, "");
  for (ServerProcess* node : nodes) {
    EXPECT_TRUE(wait_for_metric(*node, "decisiond_catalog_fetch_failures_total", {}, 1, kRevisionTimeout));
    EXPECT_TRUE(wait_for_log(*node, "revision 3 could not be fetched")) << node->stderr_text();
    EXPECT_EQ(served_revision(*node), 1);
  }

  ASSERT_EQ(cluster.publish(generated_catalog(kAds, 4)).exit_code, 0);
  ASSERT_TRUE(wait_for_revision(nodes, 4));
}

}  // namespace
}  // namespace integration
