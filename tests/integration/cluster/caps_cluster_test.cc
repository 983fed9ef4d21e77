// Cluster mode (docs/cluster.md): frequency caps, pending serves and exactly-once
// impressions shared by several decisiond nodes through a real Redis Cluster of six
// redis-server processes on loopback (tests/integration/redis_cluster/).
#include <signal.h>

#include <sys/wait.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/json_body.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/promtool_check.h"
#include "tests/integration/cluster/with_redis_cluster.h"

namespace integration {
namespace {

// Impressions counted: first sightings, as a consumer of the nodes' logs counts them (an
// unapplied line counts once its reapplied line says it was not a repeat).
size_t counted_impressions(const std::vector<LogLine>& lines, uint64_t ad) {
  size_t n = 0;
  for (const LogLine& l : lines) {
    if (l.kind == "impression" && l.ad == ad && !l.duplicate && l.store != "unapplied") ++n;
  }
  return n;
}

void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(300)); }

// decisiond-events summary --json of one node's state directory.
std::string run_events_summary(const std::string& state_dir) {
  const std::string command = std::string(DECISIOND_EVENTS_BINARY) + " --state-dir " + state_dir + " summary --json";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r"); pipe != nullptr) {
    char buffer[4096];
    size_t n = 0;
    while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
    pclose(pipe);
  }
  return out;
}

using CapsCluster = WithRedisCluster;

TEST_F(CapsCluster, ACapOfTwoHoldsAcrossThreeNodes) {
  ClusterNodes nodes(3, redis_.seed_url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  int impressed = 0;
  // Decided on one node, impressed on the next: ad 1 is capped at 2 an hour.
  for (int i = 0; i < 30 && impressed < 3; ++i) {
    const CurlReply reply = decide(nodes.node(i), "roaming-user", 3);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id != "ad_1") continue;
      ASSERT_EQ(call_tracking(nodes.node(i + 1), c.impression).status, 204);
      ++impressed;
      settle();  // the impression reaches the store before the next decision asks
    }
  }
  EXPECT_EQ(impressed, 2) << "served past its cap";
  for (size_t n = 0; n < nodes.size(); ++n) {
    for (int i = 0; i < 5; ++i) {
      const CurlReply reply = decide(nodes.node(n), "roaming-user", 3);
      for (const CreativeTokens& c : tokens_of(reply.body)) EXPECT_NE(c.ad_id, "ad_1") << "node " << n;
    }
  }
  settle();
  EXPECT_EQ(counted_impressions(nodes.all_lines(), 1), 2u);
}

TEST_F(CapsCluster, OneImpressionCalledOnEveryNodeAtOnceCountsOnce) {
  ClusterNodes nodes(3, redis_.seed_url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  const CurlReply reply = decide(nodes.node(0), "busy-user", 3);
  std::string token;
  for (const CreativeTokens& c : tokens_of(reply.body)) {
    if (c.ad_id == "ad_2") token = c.impression;
  }
  ASSERT_FALSE(token.empty()) << reply.body;
  std::vector<std::thread> callers;
  for (int n = 0; n < 3; ++n) {
    for (int k = 0; k < 3; ++k) {
      callers.emplace_back([&, n] { EXPECT_EQ(call_tracking(nodes.node(n), token).status, 204); });
    }
  }
  for (std::thread& t : callers) t.join();
  settle();
  const std::vector<LogLine> lines = nodes.all_lines();
  // Each call's attempt, written ahead, and the store's answer to it.
  size_t attempts = 0, answers = 0;
  for (const LogLine& l : lines) {
    if (l.kind != "impression" || l.ad != 2) continue;
    attempts += l.store == "unapplied" ? 1 : 0;
    answers += l.store == "reapplied" ? 1 : 0;
  }
  EXPECT_EQ(attempts, 9u) << "every call is logged on the node that took it";
  EXPECT_EQ(answers, 9u) << "and answered there";
  EXPECT_EQ(counted_impressions(lines, 2), 1u);
}

TEST_F(CapsCluster, WithAServeWindowQuickDecisionsOnThreeNodesStayWithinTheCap) {
  ClusterNodes nodes(3, redis_.seed_url(), {"--cap-serve-window=60s"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  std::multiset<std::string> served;
  for (int i = 0; i < 20; ++i) {
    const CurlReply reply = decide(nodes.node(i), "reloading-user", 3);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) served.insert(c.ad_id);
  }
  EXPECT_LE(served.count("ad_1"), 2u) << "ad 1 is capped at 2 an hour";
  EXPECT_LE(served.count("ad_2"), 1u) << "ad 2 is capped at 1 a day";
  EXPECT_EQ(served.count("ad_3"), 20u) << "the uncapped ad still serves";
}

TEST_F(CapsCluster, ADecisionWithNothingCappedNeverAsksTheStore) {
  ClusterNodes nodes(1, redis_.seed_url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_EQ(decide(nodes.node(0), "", 3).status, 200);  // no user: caps do not apply
  const std::string page = scrape_metrics(nodes.node(0));
  EXPECT_EQ(sum_samples(page, "decisiond_caps_store_reads_total", {}).value_or(-1), 0.0) << page;
  ASSERT_EQ(decide(nodes.node(0), "someone", 3).status, 200);
  EXPECT_EQ(sum_samples(scrape_metrics(nodes.node(0)), "decisiond_caps_store_reads_total", {}).value_or(-1), 1.0);
}

}  // namespace
}  // namespace integration

namespace integration {
namespace {

// The store down when an impression arrives: logged unapplied; the node killed before it
// could apply it, started again with the store up: applied then, once, and a repeat of it
// on another node is recognised.
TEST_F(CapsCluster, AnImpressionLoggedUnappliedIsAppliedOnceAfterAKillAndRestart) {
  ClusterNodes nodes({"redis://127.0.0.1:1", redis_.seed_url()});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(1));
  const CurlReply reply = decide(nodes.node(1), "patient-user", 3);
  std::string token;
  for (const CreativeTokens& c : tokens_of(reply.body)) {
    if (c.ad_id == "ad_2") token = c.impression;
  }
  ASSERT_FALSE(token.empty()) << reply.body;
  ASSERT_EQ(call_tracking(nodes.node(0), token).status, 204);  // its store is down
  settle();
  std::vector<LogLine> lines = nodes.all_lines();
  ASSERT_EQ(counted_impressions(lines, 2), 0u);
  ASSERT_TRUE(nodes.restart(0, SIGKILL, redis_.seed_url()));
  ASSERT_TRUE(nodes.wait_connected(0));
  std::this_thread::sleep_for(std::chrono::seconds(2));  // applied again within a retry interval
  ASSERT_EQ(call_tracking(nodes.node(1), token).status, 204);  // a repeat
  settle();
  lines = nodes.all_lines();
  EXPECT_EQ(counted_impressions(lines, 2), 1u);
  size_t unapplied = 0, reapplied = 0, repeats = 0;
  for (const LogLine& l : lines) {
    if (l.kind != "impression" || l.ad != 2) continue;
    unapplied += l.store == "unapplied" ? 1 : 0;
    reapplied += l.store == "reapplied" ? 1 : 0;
    repeats += l.duplicate ? 1 : 0;
  }
  // The kept attempt and the repeat's on the other node, each with its answer.
  EXPECT_EQ(unapplied, 2u);
  EXPECT_EQ(reapplied, 2u);
  EXPECT_EQ(repeats, 1u) << "the call on the other node after the re-application";
  // The tool reads the node's log as a consumer would.
  const std::string summary = run_events_summary(nodes.state_dir(0));
  EXPECT_NE(summary.find(R"("counted_impressions":1,"unapplied_impressions":1,"reapplied_impressions":1,)"
                         R"("awaiting_store_impressions":0)"),
            std::string::npos)
      << summary;
  // And the cap of 1 a day now holds on both nodes.
  for (size_t n = 0; n < 2; ++n) {
    const CurlReply again = decide(nodes.node(n), "patient-user", 3);
    for (const CreativeTokens& c : tokens_of(again.body)) EXPECT_NE(c.ad_id, "ad_2") << "node " << n;
  }
}

}  // namespace
}  // namespace integration

namespace integration {
namespace {

simdjson::dom::element explained_candidate(const JsonBody& reply, const std::string& ad) {
  for (simdjson::dom::element c : reply.root()["data"]["placements"].at(0)["candidates"].get_array()) {
    if (string_member(c, "ad") == ad) return c;
  }
  ADD_FAILURE() << "no candidate " << ad;
  return {};
}

// Explain reads the shared store too: an impression counted through one node, and a serve
// pending on another, show on a third.
TEST_F(CapsCluster, ExplainOnAnyNodeShowsCountedAndPendingFromTheStore) {
  ClusterNodes nodes(3, redis_.seed_url(), {"--cap-serve-window=60s"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  const CurlReply decision = decide(nodes.node(0), "explained-user", 3);
  std::string token;
  for (const CreativeTokens& c : tokens_of(decision.body)) {
    if (c.ad_id == "ad_1") token = c.impression;  // ad 1 (2 an hour) is served and impressed
  }
  ASSERT_FALSE(token.empty()) << decision.body;
  ASSERT_EQ(call_tracking(nodes.node(1), token).status, 204);
  ASSERT_EQ(decide(nodes.node(1), "explained-user", 3).status, 200);  // ad 1 pending once more
  settle();
  CurlSession curl;
  const CurlReply reply = curl.post_with_headers(
      nodes.node(2).admin_url("/admin/explain"),
      R"({"placements":[{"key":"home_top","count":3}],"user":{"id":"explained-user"}})",
      {"X-Decision-Version: 2025-11-01", "Content-Type: application/json"});
  ASSERT_EQ(reply.status, 200) << reply.body;
  const JsonBody explained(reply.body);
  ASSERT_TRUE(explained.ok()) << explained.error();
  const simdjson::dom::element ad_1 = explained_candidate(explained, "ad_1");
  EXPECT_EQ(string_member(ad_1, "outcome"), "excluded") << reply.body;
  EXPECT_EQ(int_member(ad_1["rule"]["caps"].at(0), "counted"), 1) << reply.body;
  EXPECT_EQ(int_member(ad_1["rule"]["caps"].at(0), "pending"), 1) << reply.body;
}

}  // namespace
}  // namespace integration

namespace integration {
namespace {

// Truly simultaneous decisions for one user on three nodes, a serve window on, no
// impressions: all read the store before any of their pending serves has landed, so each
// may serve the capped ads. The overshoot is measured and reported (docs/caps.md states the
// bound: the cap plus the decisions in flight within one round trip); once they are
// answered, their pending serves hold the ads back on every node.
TEST_F(CapsCluster, SimultaneousDecisionsOvershootByAtMostThoseInFlightThenPendingServesHold) {
  ClusterNodes nodes(3, redis_.seed_url(), {"--cap-serve-window=60s"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  constexpr int kSimultaneous = 12;
  std::vector<std::string> bodies(kSimultaneous);
  std::atomic<int> ready{0};
  std::vector<std::thread> deciders;
  for (int i = 0; i < kSimultaneous; ++i) {
    deciders.emplace_back([&, i] {
      ready.fetch_add(1);
      while (ready.load() < kSimultaneous) {
      }
      bodies[i] = decide(nodes.node(i), "burst-user", 3).body;
    });
  }
  for (std::thread& t : deciders) t.join();
  size_t ad_1 = 0;
  for (const std::string& body : bodies) {
    for (const CreativeTokens& c : tokens_of(body)) ad_1 += c.ad_id == "ad_1" ? 1 : 0;
  }
  std::printf("simultaneous decisions: %d, ad 1 (cap 2) served %zu times: overshoot %zu\n", kSimultaneous, ad_1,
              ad_1 > 2 ? ad_1 - 2 : 0);
  RecordProperty("ad_1_served_of_cap_2", static_cast<int>(ad_1));
  EXPECT_LE(ad_1, static_cast<size_t>(kSimultaneous));
  settle();
  for (size_t n = 0; n < nodes.size(); ++n) {
    const CurlReply reply = decide(nodes.node(n), "burst-user", 3);
    for (const CreativeTokens& c : tokens_of(reply.body)) EXPECT_NE(c.ad_id, "ad_1") << "node " << n;
  }
}

}  // namespace
}  // namespace integration

namespace integration {
namespace {

// The cluster families on a node's /metrics after decisions and impressions through the
// store: Prometheus' own checker finds nothing to say, and the counters agree with what was
// done (one store read per decision with a user, one round trip recorded per call).
TEST_F(CapsCluster, TheStoresMetricsPassPromtoolAndCountWhatWasDone) {
  ClusterNodes nodes(1, redis_.seed_url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  for (int i = 0; i < 5; ++i) {
    const CurlReply reply = decide(nodes.node(0), "metered-user-" + std::to_string(i), 3);
    ASSERT_EQ(reply.status, 200);
    for (const CreativeTokens& c : tokens_of(reply.body)) ASSERT_EQ(call_tracking(nodes.node(0), c.impression).status, 204);
  }
  settle();
  const std::string page = scrape_metrics(nodes.node(0));
  const PromtoolRun promtool = promtool_check(page);
  EXPECT_EQ(promtool.exit_code, 0) << promtool.output;
  EXPECT_EQ(promtool.output, "");
  EXPECT_EQ(sum_samples(page, "decisiond_caps_store_reads_total", {}).value_or(-1), 5.0) << page;
  EXPECT_EQ(sum_samples(page, "decisiond_caps_store_reads_answered_total", {}).value_or(-1), 5.0) << page;
  EXPECT_EQ(sum_samples(page, "decisiond_shared_impressions_total", {}).value_or(-1), 15.0) << "3 ads served each time";
  EXPECT_EQ(sum_samples(page, "decisiond_caps_store_unavailable_total", {}).value_or(-1), 0.0);
  EXPECT_GT(sum_samples(page, "decisiond_redis_round_trip_seconds_count", {}).value_or(0), 0.0);
}

}  // namespace
}  // namespace integration
