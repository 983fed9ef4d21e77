// The Redis Cluster client (redis_cluster/cluster_client.h) against a real cluster of three
// primaries with a replica each, whose seeds DECISIOND_TEST_REDIS_SEEDS names
// (redis://127.0.0.1:7101,...): routing, pipelining, MOVED and ASK while a slot moves, a
// deadline on a stopped node, a function library lost and loaded again, AUTH refused, and
// a server that is not a cluster. The reactor runs on the test's thread, in stretches
// between the steps that change the cluster (redis-cli), so nothing races.
#include <signal.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "redis_cluster/cluster_client.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"

namespace redis_cluster {
namespace {

std::string shell(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) out.append(buffer, n);
  ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// redis-cli against one node, "host:port".
std::string cli(const std::string& host_port, const std::string& args) {
  const size_t colon = host_port.rfind(':');
  return shell(absl::StrCat("redis-cli -h ", host_port.substr(0, colon), " -p ", host_port.substr(colon + 1), " ",
                            args, " 2>&1"));
}

struct RecordingCall final : Call {
  void on_reply(const Reply& reply) override {
    done = true;
    kind = reply.kind();
    text = std::string(reply.text());
    integer = reply.integer();
  }
  void on_failed(CallFailure why) override {
    done = true;
    failure = why;
  }
  bool done = false;
  Reply::Kind kind = Reply::Kind::kNil;
  std::string text;
  int64_t integer = 0;
  std::optional<CallFailure> failure;
};

// Checks a condition every tick and stops the loop when it holds or time is up.
class Until final : public runtime::Timer {
 public:
  Until(runtime::Reactor& reactor, std::function<bool()> done, int64_t timeout_ms)
      : reactor_(reactor), done_(std::move(done)), give_up_ns_(reactor.clock().monotonic_ns() + timeout_ms * 1'000'000) {
    reactor_.timers().schedule(*this, 1);
  }
  ~Until() override { reactor_.timers().cancel(*this); }
  void on_expire() override {
    if (done_() || reactor_.clock().monotonic_ns() >= give_up_ns_) {
      reactor_.request_stop();
      return;
    }
    reactor_.timers().schedule(*this, 1);
  }

 private:
  runtime::Reactor& reactor_;
  std::function<bool()> done_;
  int64_t give_up_ns_;
};

runtime::ReactorConfig test_reactor() {
  runtime::ReactorConfig c;
  c.ring_entries = 256;
  c.recv_buffer_count = 64;
  c.recv_buffer_bytes = 16384;
  c.max_sockets = 64;
  c.tick_ms = 5;
  return c;
}

class ClusterClientTest : public ::testing::Test {
 protected:
  ClusterClientTest() : mailbox_(1), reactor_(0, mailbox_, runtime::SystemClock::instance(), test_reactor()) {}

  void SetUp() override {
    const char* seeds = std::getenv("DECISIOND_TEST_REDIS_SEEDS");
    if (seeds == nullptr || *seeds == '\0') GTEST_SKIP() << "DECISIOND_TEST_REDIS_SEEDS is not set";
    ASSERT_TRUE(reactor_.init().ok());
    auto parsed = parse_seed_list(seeds);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    seeds_ = *parsed;
  }
  void TearDown() override {
    if (client_ == nullptr) return;
    client_->stop();
    run_until([&] { return client_->quiescent(); }, 2000);
    client_.reset();
  }

  ClusterClient& start(ClusterConfig config = {}) {
    config.seeds = seeds_;
    client_ = std::make_unique<ClusterClient>(reactor_, std::move(config));
    client_->start();
    return *client_;
  }
  ClusterClient& start_up() {
    ClusterClient& client = start();
    run_until([&] { return client.state() == ClusterState::kUp; }, 5000);
    EXPECT_EQ(client.state(), ClusterState::kUp);
    return client;
  }
  bool run_until(std::function<bool()> done, int64_t timeout_ms) {
    Until until(reactor_, done, timeout_ms);
    reactor_.run();
    return done();
  }
  int64_t in_ms(int64_t ms) const { return reactor_.clock().monotonic_ns() + ms * 1'000'000; }
  // One call, run to its end; routed by args[1] unless a routing key is given.
  RecordingCall call(std::vector<std::string> args, int64_t timeout_ms = 1000, std::string routing_key = {}) {
    std::vector<std::string_view> views(args.begin(), args.end());
    RecordingCall result;
    if (routing_key.empty()) routing_key = args.size() > 1 ? args[1] : args[0];
    EXPECT_TRUE(client_->call(routing_key, views, in_ms(timeout_ms), result));
    run_until([&] { return result.done; }, timeout_ms + 2000);
    return result;
  }

  std::vector<NodeAddress> seeds_;
  runtime::Mailbox mailbox_;
  runtime::Reactor reactor_;
  std::unique_ptr<ClusterClient> client_;
};

// Every node of the cluster, "host:port", from CLUSTER NODES.
std::vector<std::string> all_nodes(const std::string& seed) {
  std::vector<std::string> nodes;
  const std::string text = cli(seed, "cluster nodes");
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = text.substr(at, end - at);
    const size_t first = line.find(' ');
    const size_t cluster_bus = line.find('@', first);
    if (first != std::string::npos && cluster_bus != std::string::npos) {
      nodes.push_back(line.substr(first + 1, cluster_bus - first - 1));
    }
    at = end + 1;
  }
  return nodes;
}

// Moves a slot between primaries the way redis-cli --cluster reshard does, in steps so
// that a test can stand in the middle (keys moved, slot still the source's: ASK).
struct SlotMove {
  uint16_t slot;
  std::string from, to;
  void begin() const {
    cli(to, absl::StrCat("cluster setslot ", slot, " importing ", cli(from, "cluster myid")));
    cli(from, absl::StrCat("cluster setslot ", slot, " migrating ", cli(to, "cluster myid")));
  }
  void move_keys() const {
    const std::string keys = cli(from, absl::StrCat("cluster getkeysinslot ", slot, " 1000"));
    const size_t colon = to.rfind(':');
    size_t at = 0;
    while (at < keys.size()) {
      const size_t end = std::min(keys.find('\n', at), keys.size());
      cli(from, absl::StrCat("migrate ", to.substr(0, colon), " ", to.substr(colon + 1), " ", keys.substr(at, end - at),
                             " 0 5000"));
      at = end + 1;
    }
  }
  void finish(const std::vector<std::string>& nodes) const {
    const std::string to_id = cli(to, "cluster myid");
    for (const std::string& node : nodes) cli(node, absl::StrCat("cluster setslot ", slot, " node ", to_id));
  }
  void all(const std::vector<std::string>& nodes) const {
    begin();
    move_keys();
    finish(nodes);
  }
  SlotMove back() const { return {slot, to, from}; }
};

std::string another_primary(const ClusterClient& client, const std::string& than) {
  for (const uint16_t slot : {uint16_t{0}, uint16_t{8000}, uint16_t{16383}}) {
    if (client.owner_of(slot) != than) return client.owner_of(slot);
  }
  return {};
}

int64_t pid_of(const std::string& node) {
  const std::string info = cli(node, "info server");
  const size_t at = info.find("process_id:");
  return at == std::string::npos ? -1 : std::atoll(info.c_str() + at + 11);
}

TEST_F(ClusterClientTest, SetAndGetGoStraightToTheOwningPrimaryForManyKeys) {
  ClusterClient& client = start_up();
  for (int i = 0; i < 300; ++i) {
    const std::string key = absl::StrCat("routing:", i);
    EXPECT_EQ(call({"SET", key, absl::StrCat("v", i)}).text, "OK") << key;
    EXPECT_EQ(call({"GET", key}).text, absl::StrCat("v", i)) << key;
  }
  EXPECT_EQ(client.counters().moved.get(), 0u);
  EXPECT_EQ(client.counters().replies.get(), 600u);
  EXPECT_EQ(client.counters().connected_primaries.get(), 3u);
}

TEST_F(ClusterClientTest, ManyCallsArePipelinedAndAnsweredInOrder) {
  ClusterClient& client = start_up();
  constexpr int kCalls = 3000;
  std::vector<RecordingCall> calls(kCalls);
  std::vector<std::string> keys;
  for (int i = 0; i < kCalls; ++i) keys.push_back(absl::StrCat("pipelined:", i % 97));
  for (int i = 0; i < 97; ++i) call({"DEL", keys[i]});
  for (int i = 0; i < kCalls; ++i) {
    const std::string_view args[] = {"INCR", keys[i]};
    ASSERT_TRUE(client.call(keys[i], args, in_ms(5000), calls[i]));
  }
  run_until([&] { return client.counters().replies.get() >= 97u + kCalls; }, 10000);
  std::vector<int64_t> last(97, 0);
  for (int i = 0; i < kCalls; ++i) {
    ASSERT_TRUE(calls[i].done && !calls[i].failure) << i;
    EXPECT_EQ(calls[i].integer, last[i % 97] + 1) << "replies to one key come back in the order sent";
    last[i % 97] = calls[i].integer;
  }
}

TEST_F(ClusterClientTest, TheInFlightBoundRefusesWithoutACallback) {
  ClusterConfig config;
  config.max_in_flight = 4;
  start(config);
  run_until([&] { return client_->state() == ClusterState::kUp; }, 5000);
  std::vector<RecordingCall> calls(5);
  const std::string_view args[] = {"PING"};
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(client_->call("k", args, in_ms(1000), calls[i]));
  EXPECT_FALSE(client_->call("k", args, in_ms(1000), calls[4]));
  run_until([&] { return calls[3].done; }, 3000);
  EXPECT_FALSE(calls[4].done);
  EXPECT_EQ(client_->counters().refused.get(), 1u);
}

TEST_F(ClusterClientTest, MovedAfterASlotMovesUpdatesTheOwnerAndResends) {
  ClusterClient& client = start_up();
  const std::string key = "moved:key";
  ASSERT_EQ(call({"SET", key, "before the move"}).text, "OK");
  const uint16_t slot = key_slot(key);
  const SlotMove move{slot, client.owner_of(slot), another_primary(client, client.owner_of(slot))};
  const std::vector<std::string> nodes = all_nodes(move.from);
  move.all(nodes);
  EXPECT_EQ(call({"GET", key}).text, "before the move");
  EXPECT_EQ(client.counters().moved.get(), 1u);
  EXPECT_EQ(client.owner_of(slot), move.to);
  EXPECT_EQ(call({"GET", key}).text, "before the move");
  EXPECT_EQ(client.counters().moved.get(), 1u) << "the second call goes straight to the new owner";
  move.back().all(nodes);
}

TEST_F(ClusterClientTest, AskDuringAMigrationSendsAskingThenTheCommandToTheImportingNode) {
  ClusterClient& client = start_up();
  const std::string key = "ask:key";
  ASSERT_EQ(call({"SET", key, "migrating"}).text, "OK");
  const uint16_t slot = key_slot(key);
  const SlotMove move{slot, client.owner_of(slot), another_primary(client, client.owner_of(slot))};
  const std::vector<std::string> nodes = all_nodes(move.from);
  move.begin();
  move.move_keys();
  EXPECT_EQ(call({"GET", key}).text, "migrating");
  EXPECT_EQ(client.counters().asked.get(), 1u);
  EXPECT_EQ(client.owner_of(slot), move.from) << "ASK changes no owner";
  move.finish(nodes);
  move.back().all(nodes);
}

TEST_F(ClusterClientTest, ACallToAStoppedNodeTimesOutAtItsDeadlineAndTheLateReplyIsDropped) {
  ClusterClient& client = start_up();
  const std::string key = "deadline:key";
  ASSERT_EQ(call({"SET", key, "v"}).text, "OK");
  const int64_t pid = pid_of(client.owner_of(key_slot(key)));
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGSTOP), 0);
  const RecordingCall late = call({"GET", key}, 200);
  ::kill(static_cast<pid_t>(pid), SIGCONT);
  ASSERT_TRUE(late.done);
  EXPECT_EQ(late.failure, CallFailure::kTimeout);
  EXPECT_EQ(client.counters().timeouts.get(), 1u);
  EXPECT_EQ(call({"GET", key}).text, "v") << "the reply to the timed-out call was not taken for this one";
  EXPECT_EQ(client.counters().timeouts.get(), 1u);
}

TEST_F(ClusterClientTest, ALostConnectionFailsCallsFastThenComesBack) {
  ClusterClient& client = start_up();
  const std::string key = "reconnect:key";
  ASSERT_EQ(call({"SET", key, "v"}).text, "OK");
  const std::string owner = client.owner_of(key_slot(key));
  cli(owner, "client kill type normal");
  run_until([&] { return client.counters().connection_failures.get() > 0; }, 2000);
  ASSERT_GT(client.counters().connection_failures.get(), 0u);
  const int64_t asked_ns = reactor_.clock().monotonic_ns();
  const RecordingCall during = call({"GET", key}, 5000);
  if (during.failure) {  // unless the reconnection won the race
    EXPECT_EQ(during.failure, CallFailure::kUnavailable);
    EXPECT_LT(reactor_.clock().monotonic_ns() - asked_ns, 1'000'000'000) << "failed fast, not at the deadline";
  }
  run_until([&] { return client.state() == ClusterState::kUp; }, 5000);
  EXPECT_EQ(call({"GET", key}).text, "v");
  EXPECT_GE(client.counters().reconnects.get(), 1u);
}

// The value of one configuration parameter of a node (CONFIG GET answers name, value).
std::string config_of(const std::string& node, const std::string& name) {
  const std::string both = cli(node, "config get " + name);
  const size_t newline = both.find('\n');
  return newline == std::string::npos ? std::string() : both.substr(newline + 1);
}

TEST_F(ClusterClientTest, APrimaryKilledIsReplacedByItsPromotedReplica) {
  ClusterClient& client = start_up();
  const std::string key = "failover:key";
  ASSERT_EQ(call({"SET", key, "kept"}).text, "OK");
  ASSERT_EQ(call({"WAIT", "1", "1000"}, 2000, key).kind, Reply::Kind::kInteger);
  const std::string victim = client.owner_of(key_slot(key));
  // What it takes to bring the node back afterwards, as a replica of whoever replaced it.
  const std::string restart = absl::StrCat(
      "redis-server --port ", victim.substr(victim.rfind(':') + 1), " --bind 127.0.0.1 --cluster-enabled yes",
      " --cluster-config-file ", config_of(victim, "cluster-config-file"), " --cluster-port ",
      config_of(victim, "cluster-port"), " --cluster-node-timeout ", config_of(victim, "cluster-node-timeout"),
      " --dir ", config_of(victim, "dir"), " --save '' --appendonly no --daemonize yes --logfile /dev/null");
  const int64_t pid = pid_of(victim);
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
  run_until([&] { return client.state() != ClusterState::kUp; }, 5000);
  EXPECT_EQ(client.state(), ClusterState::kPartial);
  EXPECT_EQ(call({"GET", key}).failure, CallFailure::kUnavailable) << "no wait for the deadline";
  run_until([&] { return client.state() == ClusterState::kUp; }, 60000);
  EXPECT_EQ(client.state(), ClusterState::kUp);
  EXPECT_NE(client.owner_of(key_slot(key)), victim);
  EXPECT_EQ(call({"GET", key}).text, "kept");
  shell(restart);
}

constexpr char kLibrary[] =
    "#!lua name=decisiond_test\n"
    "redis.register_function('decisiond_test_echo', function(keys, args) return args[1] end)";

TEST_F(ClusterClientTest, ALibraryLostByANodeIsLoadedAgainAndTheCallRetriedOnce) {
  ClusterConfig config;
  config.seeds = seeds_;
  client_ = std::make_unique<ClusterClient>(reactor_, config);
  client_->require_library(kLibrary);
  client_->start();
  run_until([&] { return client_->state() == ClusterState::kUp; }, 5000);
  const std::string key = "library:key";
  EXPECT_EQ(call({"FCALL", "decisiond_test_echo", "1", key, "hello"}, 1000, key).text, "hello");
  const uint64_t loads = client_->counters().library_loads.get();
  cli(client_->owner_of(key_slot(key)), "function flush");
  EXPECT_EQ(call({"FCALL", "decisiond_test_echo", "1", key, "again"}, 1000, key).text, "again");
  EXPECT_EQ(client_->counters().library_loads.get(), loads + 1);
  EXPECT_EQ(client_->counters().error_replies.get(), 0u);
}

class AclUser {
 public:
  explicit AclUser(std::vector<std::string> nodes) : nodes_(std::move(nodes)) {
    for (const std::string& node : nodes_) cli(node, "acl setuser decisiond_test on '>right password' '~*' '&*' '+@all'");
  }
  ~AclUser() {
    for (const std::string& node : nodes_) cli(node, "acl deluser decisiond_test");
  }

 private:
  std::vector<std::string> nodes_;
};

TEST_F(ClusterClientTest, AnAclUserWithItsPasswordGetsIn) {
  const AclUser user(all_nodes(to_host_port(seeds_[0])));
  ClusterConfig config;
  config.user = "decisiond_test";
  config.password = "right password";
  start(config);
  run_until([&] { return client_->state() == ClusterState::kUp; }, 5000);
  EXPECT_EQ(client_->state(), ClusterState::kUp);
  EXPECT_EQ(call({"PING"}).text, "PONG");
}

TEST_F(ClusterClientTest, AWrongPasswordIsAuthFailed) {
  const AclUser user(all_nodes(to_host_port(seeds_[0])));
  ClusterConfig config;
  config.user = "decisiond_test";
  config.password = "wrong password";
  start(config);
  run_until([&] { return client_->state() == ClusterState::kAuthFailed; }, 5000);
  EXPECT_EQ(client_->state(), ClusterState::kAuthFailed);
  const RecordingCall refused = call({"PING"});
  EXPECT_EQ(refused.failure, CallFailure::kUnavailable);
}

TEST_F(ClusterClientTest, AServerWithoutClusterSupportIsNotACluster) {
  const int probe = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{.sin_family = AF_INET, .sin_port = 0, .sin_addr = {htonl(INADDR_LOOPBACK)}, .sin_zero = {}};
  socklen_t length = sizeof(address);
  ASSERT_EQ(::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const int port = ntohs(address.sin_port);
  ::close(probe);
  const std::string pidfile = absl::StrCat("/tmp/decisiond-not-cluster-", port, ".pid");
  shell(absl::StrCat("redis-server --port ", port, " --bind 127.0.0.1 --save '' --appendonly no --daemonize yes",
                     " --pidfile ", pidfile, " --logfile /dev/null"));
  seeds_ = {{"127.0.0.1", static_cast<uint16_t>(port)}};
  run_until([] { return false; }, 200);  // the server's start
  start();
  run_until([&] { return client_->state() == ClusterState::kNotCluster; }, 5000);
  EXPECT_EQ(client_->state(), ClusterState::kNotCluster);
  const std::string pid = shell(absl::StrCat("cat ", pidfile));
  if (!pid.empty()) ::kill(static_cast<pid_t>(std::atoll(pid.c_str())), SIGTERM);
}

}  // namespace
}  // namespace redis_cluster
