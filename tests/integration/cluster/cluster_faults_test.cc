// Cluster mode under faults of the Redis Cluster (docs/cluster.md "Failure policy"): a
// primary SIGKILLed under load, slots resharded under load, a store that does not answer
// when the nodes start. Decisions never fail, and every impression acknowledged with a 204
// is counted exactly once across the nodes' logs. What asynchronous replication loses in a
// failover is measured and printed, not asserted (docs/cluster.md "Replication and what a
// failover can lose").
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "gtest/gtest.h"
#include "redis_cluster/key_slot.h"
#include "tests/integration/cluster/cluster_load.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/redis_cluster/cluster_view.h"
#include "tests/integration/cluster/with_redis_cluster.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {
namespace {

constexpr int kUsers = 200;

class ClusterFaults : public WithRedisCluster {
 protected:

  // Until the load has made at least count decisions (generous: a stuck load fails later).
  static void wait_for_decisions(const ClusterLoad& load, size_t count) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (load.decisions_so_far() < count && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
};

std::vector<std::string> identities_of(ClusterNodes& nodes, const std::vector<AckedImpression>& acked) {
  ImpressionIdentities identities(nodes.state_dir(0));
  std::vector<std::string> ids;
  for (const AckedImpression& a : acked) ids.push_back(identities.of(a.url_token));
  return ids;
}

void report(const char* name, double value) {
  std::printf("[ ClusterFaults ] %s = %g\n", name, value);
  ::testing::Test::RecordProperty(name, std::to_string(value));
}

std::set<std::string> lines_of(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.insert(line);
  }
  return out;
}

TEST_F(ClusterFaults, APrimaryKilledUnderLoadFailsOverAndEveryAcknowledgedImpressionCountsOnce) {
  ClusterNodes nodes(3, redis_.seed_url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  const std::vector<std::string> users = numbered_users("load-user", kUsers);

  // The primary of the first user's slot, and which users it holds.
  const std::optional<uint16_t> victim = redis_.primary_for_key(user_hash_key(users[0]));
  ASSERT_TRUE(victim) << redis_.error();
  const CliReply view = redis_.cli({"CLUSTER", "NODES"}, *victim);
  ASSERT_TRUE(view) << view.error;
  NodeLine victim_line;
  for (const NodeLine& line : parse_cluster_nodes(view.out)) {
    if (line.port == *victim) victim_line = line;
  }
  std::set<std::string> on_victim;
  for (const std::string& u : users) {
    if (victim_line.serves(redis_cluster::key_slot(user_hash_key(u)))) on_victim.insert(u);
  }
  ASSERT_FALSE(on_victim.empty());

  ClusterLoad load(nodes, users, 1);
  wait_for_decisions(load, 300);  // past the first round: capped ads served and impressed
  std::this_thread::sleep_for(std::chrono::seconds(2));  // a steady stream to the victim
  const int64_t kill_ms = unix_now_ms();
  ASSERT_TRUE(redis_.kill_node(*victim, SIGKILL)) << redis_.error();
  ASSERT_TRUE(redis_.wait_for_failover(*victim)) << redis_.error();
  const int64_t failed_over_ms = unix_now_ms();
  const size_t decided_at_failover = load.decisions_so_far();
  wait_for_decisions(load, decided_at_failover + 300);  // and on, against the new primary
  const LoadTally tally = load.stop();

  EXPECT_GT(tally.decisions, 0u);
  EXPECT_EQ(tally.decisions_failed, 0u) << tally.first_failure;
  EXPECT_EQ(tally.tracking_failed, 0u) << tally.first_failure;
  const double unavailable = sum_over_nodes(nodes, "decisiond_caps_store_unavailable_total");
  ASSERT_TRUE(wait_for_empty_backlogs(nodes)) << "impressions still wait for the store";
  const std::vector<LogLine> lines = nodes.all_lines();
  const std::vector<std::string> acked_ids = identities_of(nodes, tally.acked);
  EXPECT_TRUE(EveryAcknowledgedImpressionCountedOnce(acked_ids, lines));

  // The write-loss window: impressions the old primary answered as counted (a counted line
  // without a store member) before the kill whose identity key the new primary lacks.
  const std::optional<uint16_t> promoted = redis_.primary_for_key(user_hash_key(*on_victim.begin()));
  ASSERT_TRUE(promoted) << redis_.error();
  const CliReply keys = redis_.cli({"KEYS", "dcd:*:i:*"}, *promoted);
  ASSERT_TRUE(keys) << keys.error;
  const std::set<std::string> kept = lines_of(keys.out);
  std::map<std::string, std::string> counted_store;  // identity: store member of its counted line
  for (const LogLine& l : lines) {
    if (l.kind == "impression" && !l.duplicate && l.store != "unapplied") counted_store.emplace(l.token, l.store);
  }
  size_t counted_on_victim = 0, counted_last_second = 0, lost = 0, lost_capped = 0;
  int64_t lost_oldest_ms = 0, lost_newest_ms = -1;
  for (size_t i = 0; i < tally.acked.size(); ++i) {
    const AckedImpression& a = tally.acked[i];
    if (!on_victim.contains(a.user) || a.acked_ms >= kill_ms) continue;
    const auto it = counted_store.find(acked_ids[i]);
    if (it == counted_store.end() || !it->second.empty()) continue;
    ++counted_on_victim;
    const int64_t before_kill_ms = kill_ms - a.acked_ms;
    counted_last_second += before_kill_ms <= 1000 ? 1 : 0;
    if (kept.contains(user_impression_key(a.user, acked_ids[i]))) continue;
    ++lost;
    lost_capped += a.ad_id != "ad_3" ? 1 : 0;
    lost_oldest_ms = std::max(lost_oldest_ms, before_kill_ms);
    lost_newest_ms = lost_newest_ms < 0 ? before_kill_ms : std::min(lost_newest_ms, before_kill_ms);
  }
  // The cap effect: users of the killed primary counted past a cap in the logs (a lost cap
  // entry lets the ad be served again).
  std::map<std::pair<std::string, uint64_t>, size_t> per_user_ad;
  for (const LogLine& l : lines) {
    if (l.kind == "impression" && !l.duplicate && l.store != "unapplied" && on_victim.contains(l.user)) {
      ++per_user_ad[{l.user, l.ad}];
    }
  }
  size_t past_cap = 0;
  for (const auto& [user_ad, n] : per_user_ad) {
    past_cap += (user_ad.second == 1 && n > 2) || (user_ad.second == 2 && n > 1) ? 1 : 0;
  }
  report("decisions", static_cast<double>(tally.decisions));
  report("impressions_acknowledged", static_cast<double>(tally.acked.size()));
  report("users_on_killed_primary", static_cast<double>(on_victim.size()));
  report("failover_ms", static_cast<double>(failed_over_ms - kill_ms));
  report("caps_store_unavailable_total", unavailable);
  report("unapplied_lines", static_cast<double>(std::count_if(lines.begin(), lines.end(), [](const LogLine& l) {
           return l.kind == "impression" && l.store == "unapplied";
         })));
  report("counted_on_killed_primary_before_kill", static_cast<double>(counted_on_victim));
  report("counted_on_killed_primary_last_second", static_cast<double>(counted_last_second));
  report("lost_impression_writes", static_cast<double>(lost));
  report("lost_capped_impression_writes", static_cast<double>(lost_capped));
  report("lost_window_oldest_ms_before_kill", static_cast<double>(lost ? lost_oldest_ms : 0));
  report("lost_window_newest_ms_before_kill", static_cast<double>(lost ? lost_newest_ms : 0));
  report("user_ads_counted_past_cap", static_cast<double>(past_cap));
}

TEST_F(ClusterFaults, SlotsReshardedUnderLoadLoseAndDoubleNothing) {
  ClusterNodes nodes(3, redis_.seed_url());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  const std::vector<uint16_t> primaries = redis_.primary_ports();
  ASSERT_GE(primaries.size(), 2u);

  ClusterLoad load(nodes, numbered_users("moving-user", kUsers), 1);
  wait_for_decisions(load, 300);
  ASSERT_TRUE(redis_.reshard(primaries[0], primaries[1], 1000)) << redis_.error();
  ASSERT_TRUE(redis_.reshard(primaries[1], primaries[0], 1000)) << redis_.error();
  wait_for_decisions(load, load.decisions_so_far() + 100);
  const LoadTally tally = load.stop();

  EXPECT_GT(tally.decisions, 0u);
  EXPECT_EQ(tally.decisions_failed, 0u) << tally.first_failure;
  EXPECT_EQ(tally.tracking_failed, 0u) << tally.first_failure;
  report("decisions", static_cast<double>(tally.decisions));
  report("impressions_acknowledged", static_cast<double>(tally.acked.size()));
  report("caps_store_unavailable_total", sum_over_nodes(nodes, "decisiond_caps_store_unavailable_total"));
  ASSERT_TRUE(wait_for_empty_backlogs(nodes)) << "impressions still wait for the store";
  const std::vector<LogLine> lines = nodes.all_lines();
  report("unapplied_lines", static_cast<double>(std::count_if(lines.begin(), lines.end(), [](const LogLine& l) {
           return l.kind == "impression" && l.store == "unapplied";
         })));
  EXPECT_TRUE(EveryAcknowledgedImpressionCountedOnce(identities_of(nodes, tally.acked), lines));

  // Users at ad 1's cap of 2 an hour are not served it on any node.
  std::map<std::string, size_t> ad1_counted;
  for (const LogLine& l : lines) {
    if (l.kind == "impression" && l.ad == 1 && !l.duplicate && l.store != "unapplied") ++ad1_counted[l.user];
  }
  size_t checked = 0;
  for (const auto& [user, n] : ad1_counted) {
    if (n < 2 || checked == 5) continue;
    ++checked;
    for (size_t node = 0; node < nodes.size(); ++node) {
      const CurlReply reply = decide(nodes.node(node), user, 3);
      ASSERT_EQ(reply.status, 200) << reply.body;
      for (const CreativeTokens& c : tokens_of(reply.body)) {
        EXPECT_NE(c.ad_id, "ad_1") << user << " on node " << node << " has " << n << " counted";
      }
    }
  }
  EXPECT_GT(checked, 0u) << "no user reached ad 1's cap under the load";
}

// Two nodes start while every store process is away (taken away by the caller), serve
// without capped ads and log their impressions unapplied; once bring_back() has the store
// answering again, capped ads serve on both nodes and every impression is counted once.
void ServeWhileTheStoreIsAwayThenCatchUp(const std::string& seed_url, const std::function<bool()>& bring_back) {
  ClusterNodes nodes(2, seed_url, {"--caps-timeout=25ms"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();

  // Served meanwhile, capped ads held back; the uncapped ad's impressions wait for the store.
  std::vector<AckedImpression> acked;
  for (int i = 0; i < 20; ++i) {
    const std::string user = "patient-" + std::to_string(i % 10);
    const CurlReply reply = decide(nodes.node(i), user, 3);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      EXPECT_EQ(c.ad_id, "ad_3") << "a capped ad served with the store not answering";
      ASSERT_EQ(call_tracking(nodes.node(i + 1), c.impression).status, 204);
      acked.push_back({user, c.ad_id, c.impression, unix_now_ms()});
    }
  }
  ASSERT_FALSE(acked.empty());
  const double unavailable = sum_over_nodes(nodes, "decisiond_caps_store_unavailable_total");
  report("caps_store_unavailable_total", unavailable);
  EXPECT_GT(unavailable, 0);
  const std::vector<std::string> ids = identities_of(nodes, acked);
  const auto unapplied_lines = [&] {
    std::map<std::string, size_t> n;
    for (const LogLine& l : nodes.all_lines()) {
      if (l.kind == "impression" && l.store == "unapplied") ++n[l.token];
    }
    return n;
  };
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the lines flushed
  std::map<std::string, size_t> unapplied = unapplied_lines();
  for (const std::string& id : ids) EXPECT_EQ(unapplied[id], 1u) << "identity " << id;

  ASSERT_TRUE(bring_back());
  const int64_t resumed_ms = unix_now_ms();
  // Capped ads serve again (a fresh user each try, so no cap holds them back).
  for (size_t node = 0; node < nodes.size(); ++node) {
    bool served = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (int k = 0; !served && std::chrono::steady_clock::now() < deadline; ++k) {
      const CurlReply reply = decide(nodes.node(node), "returning-" + std::to_string(node) + "-" + std::to_string(k), 3);
      ASSERT_EQ(reply.status, 200) << reply.body;
      for (const CreativeTokens& c : tokens_of(reply.body)) served = served || c.ad_id == "ad_1";
      if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    EXPECT_TRUE(served) << "node " << node << " never served a capped ad again";
    report(node == 0 ? "node0_capped_served_ms_after_resume" : "node1_capped_served_ms_after_resume",
           static_cast<double>(unix_now_ms() - resumed_ms));
  }

  ASSERT_TRUE(wait_for_empty_backlogs(nodes)) << "impressions still wait for the store";
  report("backlog_empty_ms_after_resume", static_cast<double>(unix_now_ms() - resumed_ms));
  const std::vector<LogLine> lines = nodes.all_lines();
  EXPECT_TRUE(EveryAcknowledgedImpressionCountedOnce(ids, lines));
  std::map<std::string, size_t> reapplied;
  for (const LogLine& l : lines) {
    if (l.kind == "impression" && l.store == "reapplied") ++reapplied[l.token];
  }
  for (const std::string& id : ids) EXPECT_EQ(reapplied[id], 1u) << "identity " << id;
}


TEST_F(ClusterFaults, AStoreNotAnsweringAtStartIsUsedOnceItAnswers) {
  // Paused: connections are accepted by the kernel and requests wait unanswered.
  std::vector<uint16_t> ports;
  for (const RedisClusterNode& r : redis_.nodes()) ports.push_back(r.port);
  for (uint16_t port : ports) ASSERT_TRUE(redis_.kill_node(port, SIGSTOP)) << redis_.error();
  ServeWhileTheStoreIsAwayThenCatchUp(redis_.seed_url(), [&] {
    for (uint16_t port : ports) {
      if (!redis_.kill_node(port, SIGCONT)) return false;
    }
    return true;
  });
}

TEST_F(ClusterFaults, AClusterDownAtStartIsUsedOnceItComesUp) {
  // Down: every process killed, so connecting is refused; restarted later on the same
  // ports from the same nodes.conf files, the cluster comes back whole.
  std::vector<uint16_t> ports;
  for (const RedisClusterNode& r : redis_.nodes()) ports.push_back(r.port);
  for (uint16_t port : ports) ASSERT_TRUE(redis_.kill_node(port, SIGKILL)) << redis_.error();
  ServeWhileTheStoreIsAwayThenCatchUp(redis_.seed_url(), [&] {
    const bool up = redis_.restart_nodes(ports);
    EXPECT_TRUE(up) << redis_.error();
    return up;
  });
}

}  // namespace
}  // namespace integration

namespace integration {
namespace {

// An impression whose store call passes its deadline is logged unapplied, but the call may
// still run on the primary (here one paused with SIGSTOP, its requests waiting in its
// socket; equally a reply slower than --caps-timeout, or a primary killed after it
// replicated and before its reply left). Sent again with the same attempt stamp, the store
// recognises its own earlier attempt: the reapplied line says counted, once.
TEST_F(ClusterFaults, AnImpressionTheStoreRanAfterItsDeadlineIsCountedOnce) {
  ClusterNodes nodes(1, redis_.seed_url(), {"--caps-timeout=25ms"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  const std::string user = "paused-user";
  const CurlReply reply = decide(nodes.node(0), user, 3);
  ASSERT_EQ(reply.status, 200) << reply.body;
  const std::optional<uint16_t> primary = redis_.primary_for_key(user_hash_key(user));
  ASSERT_TRUE(primary) << redis_.error();
  ASSERT_TRUE(redis_.kill_node(*primary, SIGSTOP)) << redis_.error();
  std::vector<AckedImpression> acked;
  for (const CreativeTokens& c : tokens_of(reply.body)) {
    ASSERT_EQ(call_tracking(nodes.node(0), c.impression).status, 204);
    acked.push_back({user, c.ad_id, c.impression, unix_now_ms()});
  }
  ASSERT_FALSE(acked.empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // past every deadline
  ASSERT_TRUE(redis_.kill_node(*primary, SIGCONT)) << redis_.error();
  ASSERT_TRUE(wait_for_empty_backlogs(nodes)) << "impressions still wait for the store";
  EXPECT_TRUE(EveryAcknowledgedImpressionCountedOnce(identities_of(nodes, acked), nodes.all_lines()));
}

}  // namespace
}  // namespace integration
