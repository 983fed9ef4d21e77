// The Redis Cluster fixture itself: what the cap store's tests count on it for.
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

namespace integration {
namespace {

using Clock = std::chrono::steady_clock;

// The value of `name:` in an INFO reply's text, or -1.
long long info_number(const std::string& info, const std::string& name) {
  const size_t at = info.find(name + ":");
  return at == std::string::npos ? -1 : std::atoll(info.c_str() + at + name.size() + 1);
}

// Whether primary's replica has acknowledged everything written to primary so far, within
// timeout. Not WAIT: WAIT counts the acknowledgements of the calling connection's own
// writes, and each cli() call is a new connection, with none (so it answered at once).
bool replica_caught_up(const RedisCluster& cluster, uint16_t primary, std::chrono::milliseconds timeout) {
  for (const auto deadline = Clock::now() + timeout; Clock::now() < deadline;) {
    const CliReply info = cluster.cli({"INFO", "replication"}, primary);
    const long long written = info ? info_number(info.out, "master_repl_offset") : -1;
    // "slave0:ip=...,port=...,state=online,offset=N,lag=0"
    const size_t replica = info ? info.out.find("slave0:") : std::string::npos;
    const size_t offset = replica == std::string::npos ? std::string::npos : info.out.find("offset=", replica);
    if (written > 0 && offset != std::string::npos && std::atoll(info.out.c_str() + offset + 7) >= written) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

long long ms_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
}

// Durations go to the test's output: how long the fixture takes here, not an assertion.
void note(const std::string& what, long long ms) { std::cout << "[ timing ] " << what << ": " << ms << " ms\n"; }

TEST(RedisCluster, ComesUpWithThreePrimariesThreeReplicasAndAllSlots) {
  const auto start = Clock::now();
  RedisCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  note("cluster up", ms_since(start));

  const std::vector<RedisClusterNode> nodes = cluster.nodes();
  ASSERT_EQ(nodes.size(), 6u);
  int primaries = 0;
  for (const RedisClusterNode& node : nodes) {
    EXPECT_TRUE(node.running);
    EXPECT_GT(node.pid, 0);
    EXPECT_EQ(node.id.size(), 40u);
    EXPECT_NE(node.port, node.bus_port);
    if (node.role == "master") {
      ++primaries;
      EXPECT_GT(cluster.slots_served_by(node.port), 5000);
    } else {
      ASSERT_EQ(node.role, "slave");
      const auto primary = std::find_if(nodes.begin(), nodes.end(), [&](const auto& n) { return n.id == node.primary_id; });
      ASSERT_NE(primary, nodes.end());
      EXPECT_EQ(primary->role, "master");
    }
    const CliReply info = cluster.cli({"CLUSTER", "INFO"}, node.port);
    ASSERT_TRUE(info) << info.error;
    EXPECT_EQ(info_field(info.out, "cluster_state"), "ok");
    EXPECT_EQ(info_field(info.out, "cluster_slots_assigned"), "16384");
  }
  EXPECT_EQ(primaries, 3);
  const std::vector<uint16_t> seeds = cluster.primary_ports();
  ASSERT_EQ(seeds.size(), 3u);
  EXPECT_EQ(cluster.seed_url(), "redis://127.0.0.1:" + std::to_string(seeds[0]) + ",127.0.0.1:" +
                                    std::to_string(seeds[1]) + ",127.0.0.1:" + std::to_string(seeds[2]));
}

TEST(RedisCluster, KeyWrittenOnItsPrimaryIsReadableThroughRedirects) {
  RedisCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const auto primary = cluster.primary_for_key("{u:abc}");
  ASSERT_TRUE(primary) << cluster.error();
  const CliReply set = cluster.cli({"SET", "{u:abc}:caps", "7"}, *primary);
  ASSERT_TRUE(set) << set.error;
  for (uint16_t port : cluster.primary_ports()) {
    const CliReply get = cluster.cli({"-c", "GET", "{u:abc}:caps"}, port);
    ASSERT_TRUE(get) << get.error;
    EXPECT_EQ(get.out, "7") << "read through port " << port;
    if (port != *primary) {
      const CliReply moved = cluster.cli({"GET", "{u:abc}:caps"}, port);
      EXPECT_FALSE(moved);
      EXPECT_NE(moved.error.find("MOVED"), std::string::npos) << moved.error;
    }
  }
}

TEST(RedisCluster, KillingAPrimaryPromotesItsReplicaAndItRejoinsAsReplica) {
  RedisCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const uint16_t old_primary = *cluster.primary_for_key("{u:abc}");
  ASSERT_TRUE(cluster.cli({"SET", "{u:abc}:caps", "3"}, old_primary));
  // Acknowledged by the replica before the kill, so the promoted replica has it.
  ASSERT_TRUE(replica_caught_up(cluster, old_primary, std::chrono::seconds(5)));

  ASSERT_TRUE(cluster.kill_node(old_primary, SIGKILL)) << cluster.error();
  const auto start = Clock::now();
  ASSERT_TRUE(cluster.wait_for_failover(old_primary)) << cluster.error();
  note("failover after SIGKILL (node timeout 1000 ms)", ms_since(start));

  const auto new_primary = cluster.primary_for_key("{u:abc}");
  ASSERT_TRUE(new_primary) << cluster.error();
  EXPECT_NE(*new_primary, old_primary);
  const CliReply get = cluster.cli({"GET", "{u:abc}:caps"}, *new_primary);
  ASSERT_TRUE(get) << get.error;
  EXPECT_EQ(get.out, "3");

  const auto restart = Clock::now();
  ASSERT_TRUE(cluster.restart_node(old_primary)) << cluster.error();
  note("old primary restarted and attached", ms_since(restart));
  const auto rejoined = cluster.node(old_primary);
  ASSERT_TRUE(rejoined);
  EXPECT_EQ(rejoined->role, "slave");
  EXPECT_EQ(rejoined->primary_id, cluster.node(*new_primary)->id);
}

TEST(RedisCluster, ReshardMovesTheSlotsAskedFor) {
  RedisCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const std::vector<uint16_t> primaries = cluster.primary_ports();
  const int from_before = cluster.slots_served_by(primaries[0]);
  const int to_before = cluster.slots_served_by(primaries[1]);
  const auto start = Clock::now();
  ASSERT_TRUE(cluster.reshard(primaries[0], primaries[1], 100)) << cluster.error();
  note("reshard of 100 slots", ms_since(start));
  EXPECT_EQ(cluster.slots_served_by(primaries[0]), from_before - 100);
  EXPECT_EQ(cluster.slots_served_by(primaries[1]), to_before + 100);
}

TEST(RedisCluster, SlotInMigrationAnswersAskForAKeyAlreadyMoved) {
  RedisCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const std::string key = "{u:ask}:caps";
  const uint16_t from = *cluster.primary_for_key(key);
  const int slot = *cluster.slot_of(key);
  uint16_t to = 0;
  for (uint16_t port : cluster.primary_ports()) to = port != from ? port : to;

  // Written before the migration opens: from then on a new key of the slot goes to the target.
  ASSERT_TRUE(cluster.cli({"SET", "{u:ask}:other", "1"}, from));
  ASSERT_TRUE(cluster.migrate_slot_start(slot, from, to)) << cluster.error();
  // Absent from the source, so the source sends the client to the target.
  const CliReply ask = cluster.cli({"GET", key}, from);
  EXPECT_FALSE(ask);
  EXPECT_NE(ask.error.find("ASK " + std::to_string(slot)), std::string::npos) << ask.error;
  EXPECT_EQ(cluster.cli({"GET", "{u:ask}:other"}, from).out, "1");  // still there: no ASK

  ASSERT_TRUE(cluster.migrate_slot_finish(slot, from, to)) << cluster.error();
  EXPECT_EQ(*cluster.primary_for_key(key), to);
  EXPECT_EQ(cluster.cli({"GET", "{u:ask}:other"}, to).out, "1");
}

TEST(RedisCluster, PasswordProtectedClusterRefusesAWrongPassword) {
  RedisClusterOptions options;
  options.password = "s3cret-pass";
  RedisCluster cluster(options);
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const uint16_t port = cluster.primary_ports().front();
  EXPECT_EQ(cluster.cli({"PING"}, port).out, "PONG");

  const CliReply wrong = RedisCli({"not-the-password", ""}).run(port, {"PING"});
  EXPECT_FALSE(wrong);
  EXPECT_NE(wrong.error.find("WRONGPASS"), std::string::npos) << wrong.error;
  const CliReply none = RedisCli({}).run(port, {"PING"});
  EXPECT_FALSE(none);
  EXPECT_NE(none.error.find("NOAUTH"), std::string::npos) << none.error;
}

TEST(RedisCluster, AclUserIsTheOnlyLogin) {
  RedisClusterOptions options;
  options.password = "s3cret-pass";
  options.acl_user = "capstore";
  RedisCluster cluster(options);
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const uint16_t port = cluster.primary_ports().front();
  EXPECT_EQ(cluster.cli({"ACL", "WHOAMI"}, port).out, "capstore");
  // The same password without the user name is the default user's, which is off.
  EXPECT_FALSE(RedisCli({"s3cret-pass", ""}).run(port, {"PING"}));
}

TEST(RedisCluster, RedisServerIsNotACluster) {
  RedisServer server;
  ASSERT_TRUE(server.ok()) << server.error();
  EXPECT_EQ(server.url(), "redis://127.0.0.1:" + std::to_string(server.port()));
  EXPECT_EQ(server.cli({"PING"}).out, "PONG");
  const CliReply info = server.cli({"CLUSTER", "INFO"});
  EXPECT_FALSE(info);
  EXPECT_NE(info.error.find("cluster support disabled"), std::string::npos) << info.error;
}

TEST(RedisCluster, StopLeavesNoProcessBehind) {
  RedisCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  std::vector<pid_t> pids;
  for (const RedisClusterNode& node : cluster.nodes()) pids.push_back(node.pid);
  cluster.stop();
  for (pid_t pid : pids) EXPECT_NE(::kill(pid, 0), 0) << "pid " << pid << " still exists";
}

}  // namespace
}  // namespace integration
