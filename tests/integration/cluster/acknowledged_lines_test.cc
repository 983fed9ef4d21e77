// What a reply acknowledges is in the event log, whatever kills the process after it
// (docs/events.md "Durability"): an impression's 204 leaves only with its line, written on the
// core that counts it (embedded mode: the user's owner core, whose answer home waits for the
// line's write) or once the shared cap store answered or its deadline passed (cluster mode).
// Each test kills the real binary with SIGKILL right after the replies and reads the log.
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_load.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/cluster/with_redis_cluster.h"

namespace integration {
namespace {

// Bytes after the last line feed of each event log file: a write the kill cut short.
std::string torn_tails(const std::string& state_dir) {
  std::string out;
  std::error_code error;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(state_dir + "/events", error)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t last = bytes.rfind('\n');
    const size_t tail = last == std::string::npos ? bytes.size() : bytes.size() - last - 1;
    if (tail > 0) out += " " + entry.path().parent_path().filename().string() + ": " + std::to_string(tail) + " bytes";
  }
  return out.empty() ? " none" : out;
}

// The identities of impression lines in state_dir's log.
std::set<std::string> logged_identities(const std::string& state_dir) {
  std::set<std::string> out;
  for (const LogLine& l : read_event_log(state_dir)) {
    if (l.kind == "impression") out.insert(l.token);
  }
  return out;
}

// Two cores, impressions called on fresh connections (either core takes them, about half for
// users the other core owns), killed while 204s are still arriving: every 204 the clients
// got has its line, whichever core wrote it.
TEST(AcknowledgedLines, EveryImpressionAnswered204BeforeAKillIsInTheLogWhicheverCoreCountsIt) {
  StateDir state;
  TempFile catalog("catalog.json", capped_catalog_json());
  const std::vector<std::string> flags = standard_flags({"--catalog=" + catalog.path(), state.flag(), "--cores=2"});
  ServerProcess server(flags);
  ASSERT_TRUE(server.serving()) << server.start_error();
  std::vector<std::string> tokens;
  for (int i = 0; tokens.size() < 400; ++i) {
    const CurlReply reply = decide(server, "acked-user-" + std::to_string(i), 3);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) tokens.push_back(c.impression);
  }
  std::atomic<size_t> next{0};
  std::atomic<size_t> acked_count{0};
  std::mutex mutex;
  std::vector<std::string> acked;
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&] {
      for (size_t i = next++; i < tokens.size(); i = next++) {
        if (call_tracking(server, tokens[i]).status != 204) return;  // the kill landed
        std::lock_guard<std::mutex> lock(mutex);
        acked.push_back(tokens[i]);
        ++acked_count;
      }
    });
  }
  while (acked_count.load() < tokens.size() / 2) std::this_thread::yield();
  server.send_signal(SIGKILL);
  for (std::thread& c : callers) c.join();
  ASSERT_TRUE(server.wait_for_exit());
  ImpressionIdentities identities(state.path());
  const std::set<std::string> logged = logged_identities(state.path());
  size_t missing = 0;
  for (const std::string& token : acked) missing += logged.count(identities.of(token)) == 0 ? 1 : 0;
  EXPECT_EQ(missing, 0u) << "of " << acked.size() << " impressions answered 204; torn tails:" << torn_tails(state.path());
}

using AcknowledgedLinesInCluster = WithRedisCluster;

// The user's primary paused: the store does not answer, so the 204 waits for the deadline,
// and leaves with the line that says unapplied. Killed right after it, the node has the line,
// and once back it applies the impression exactly once.
TEST_F(AcknowledgedLinesInCluster, AnImpressionAnsweredWhileTheStoreIsAwayIsInTheLogWhenKilled) {
  ClusterNodes nodes(1, redis_.seed_url(), {"--caps-timeout=1s"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  const std::string user = "killed-after-reply";
  const CurlReply reply = decide(nodes.node(0), user, 3);
  ASSERT_EQ(reply.status, 200) << reply.body;
  const std::vector<CreativeTokens> served = tokens_of(reply.body);
  ASSERT_FALSE(served.empty());
  const std::optional<uint16_t> primary = redis_.primary_for_key(user_hash_key(user));
  ASSERT_TRUE(primary) << redis_.error();
  ASSERT_TRUE(redis_.kill_node(*primary, SIGSTOP)) << redis_.error();
  ASSERT_EQ(call_tracking(nodes.node(0), served[0].impression).status, 204);
  nodes.node(0).send_signal(SIGKILL);
  ASSERT_TRUE(nodes.node(0).wait_for_exit());
  const std::string identity = ImpressionIdentities(nodes.state_dir(0)).of(served[0].impression);
  size_t unapplied = 0;
  for (const LogLine& l : read_event_log(nodes.state_dir(0))) {
    unapplied += (l.kind == "impression" && l.token == identity && l.store == "unapplied") ? 1 : 0;
  }
  EXPECT_EQ(unapplied, 1u) << "the 204 left without its line";

  ASSERT_TRUE(redis_.kill_node(*primary, SIGCONT)) << redis_.error();
  ASSERT_TRUE(nodes.restart(0, SIGKILL)) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  ASSERT_TRUE(wait_for_empty_backlogs(nodes));
  EXPECT_TRUE(EveryAcknowledgedImpressionCountedOnce({identity}, nodes.all_lines()));
}

// The store counts an attempt, and its node is killed before the answer comes back: the
// attempt's line was written before the store was asked, so the node's next start asks
// again, the store recognises the stamp, and that node's log counts it. (Without the line
// written ahead, no log would: the other node's call of the same URL is a repeat.) DEBUG
// SLEEP holds the user's primary while the attempt waits in its socket; it runs once the
// sleep ends, after the kill.
TEST_F(AcknowledgedLinesInCluster, AnImpressionTheStoreCountedAsItsNodeWasKilledIsCountedByThatNodeAfterItsRestart) {
  ClusterNodes nodes(2, redis_.seed_url(), {"--caps-timeout=5s"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  for (size_t n = 0; n < nodes.size(); ++n) ASSERT_TRUE(nodes.wait_connected(n)) << "node " << n;
  const std::string user = "killed-mid-round-trip";
  const CurlReply reply = decide(nodes.node(0), user, 3);
  ASSERT_EQ(reply.status, 200) << reply.body;
  const std::vector<CreativeTokens> served = tokens_of(reply.body);
  ASSERT_FALSE(served.empty());
  const std::string identity = ImpressionIdentities(nodes.state_dir(0)).of(served[0].impression);
  const std::optional<uint16_t> primary = redis_.primary_for_key(user_hash_key(user));
  ASSERT_TRUE(primary) << redis_.error();

  std::thread sleeper([&] { redis_.cli({"DEBUG", "SLEEP", "1.5"}, *primary); });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  int status = -1;
  std::thread caller([&] { status = call_tracking(nodes.node(0), served[0].impression).status; });
  std::this_thread::sleep_for(std::chrono::milliseconds(400));  // the attempt is in the primary's socket
  nodes.node(0).send_signal(SIGKILL);
  ASSERT_TRUE(nodes.node(0).wait_for_exit());
  caller.join();
  sleeper.join();
  EXPECT_NE(status, 204) << "no reply: its node was killed while the store held it";
  size_t attempts = 0, answers = 0;
  for (const LogLine& l : read_event_log(nodes.state_dir(0))) {
    if (l.kind != "impression" || l.token != identity) continue;
    attempts += l.store == "unapplied" ? 1 : 0;
    answers += l.store == "reapplied" ? 1 : 0;
  }
  ASSERT_EQ(attempts, 1u) << "the attempt's line, written before the store was asked";
  ASSERT_EQ(answers, 0u) << "the kill came before the answer";

  // The client tries the other node: the store counted the first attempt already.
  ASSERT_EQ(call_tracking(nodes.node(1), served[0].impression).status, 204);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  bool repeat_on_node_1 = false;
  for (const LogLine& l : read_event_log(nodes.state_dir(1))) {
    if (l.kind == "impression" && l.token == identity && l.store == "reapplied") repeat_on_node_1 = l.duplicate;
  }
  ASSERT_TRUE(repeat_on_node_1) << "the store did not run the killed node's attempt: the test proves nothing";

  ASSERT_TRUE(nodes.restart(0, SIGKILL)) << nodes.error();
  ASSERT_TRUE(nodes.wait_connected(0));
  ASSERT_TRUE(wait_for_empty_backlogs(nodes));
  EXPECT_TRUE(EveryAcknowledgedImpressionCountedOnce({identity}, nodes.all_lines()));
  bool counted_on_node_0 = false;
  for (const LogLine& l : read_event_log(nodes.state_dir(0))) {
    if (l.kind == "impression" && l.token == identity && l.store == "reapplied") counted_on_node_0 = !l.duplicate;
  }
  EXPECT_TRUE(counted_on_node_0) << "the restarted node's answer: the store recognised its attempt";
}

}  // namespace
}  // namespace integration
