// A node counts the impressions it keeps for the shared store on every one of its cores
// (docs/caps.md "While the shared store heals"): the store refuses writes (CLIENT PAUSE
// WRITE on every primary) but answers reads, so an impression is logged unapplied and kept
// by the core that received it, while decisions on either core read the user's state from
// the store, which does not have it. Neither core serves the capped ad again.
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/cluster/with_redis_cluster.h"
#include "tests/integration/curl_session.h"

namespace integration {
namespace {

using KeptOnEveryCore = WithRedisCluster;

TEST_F(KeptOnEveryCore, AnImpressionTheStoreHasNotTakenHoldsItsCapOnEveryCoreOfTheNode) {
  // A short deadline: the impression is answered, unapplied, in a quarter of a second.
  ClusterNodes nodes(1, redis_.seed_url(), {"--caps-timeout=250ms"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  const std::string user = "kept-everywhere";
  std::string token;
  for (const CreativeTokens& c : tokens_of(decide(nodes.node(0), user, 3).body)) {
    if (c.ad_id == "ad_2") token = c.impression;  // ad 2: once a day
  }
  ASSERT_FALSE(token.empty());

  // Writes (the impression's function) wait; reads (a decision's HGETALL) are answered.
  for (uint16_t port : redis_.primary_ports()) {
    const CliReply paused = redis_.cli({"CLIENT", "PAUSE", "20000", "WRITE"}, port);
    ASSERT_NE(paused.out.find("OK"), std::string::npos) << paused.out;
  }
  ASSERT_EQ(call_tracking(nodes.node(0), token).status, 204);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // its line written

  // Decisions on fresh connections, until both cores have decided for the user at least
  // twice: none serves ad 2.
  std::set<std::string> cores;
  for (int i = 0; i < 64; ++i) {
    const CurlReply reply = decide(nodes.node(0), user, 3);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) EXPECT_NE(c.ad_id, "ad_2") << "decision " << i;
    if (i >= 8) {
      std::this_thread::sleep_for(std::chrono::milliseconds(150));  // the decisions' lines written
      cores.clear();
      for (const LogLine& l : nodes.all_lines()) {
        if (l.kind == "decision" && l.user == user) cores.insert(l.core_dir);
      }
      if (cores.size() == 2) break;
    }
  }
  EXPECT_EQ(cores.size(), 2u) << "the decisions all landed on one core: the test proves nothing";

  size_t unapplied = 0, counted = 0;
  for (const LogLine& l : nodes.all_lines()) {
    if (l.kind != "impression" || l.ad != 2) continue;
    unapplied += l.store == "unapplied" ? 1 : 0;
    counted += l.store.empty() && !l.duplicate ? 1 : 0;
  }
  EXPECT_EQ(unapplied, 1u) << "the store took the impression: the test proves nothing";
  EXPECT_EQ(counted, 0u);
  for (uint16_t port : redis_.primary_ports()) redis_.cli({"CLIENT", "UNPAUSE"}, port);
}

}  // namespace
}  // namespace integration
