// The Redis Cluster client (redis_cluster/cluster_client.h) against a real cluster of three
// primaries with a replica each, which the fixture (redis_cluster_fixture.h) starts on
// loopback for every test and always stops: routing, pipelining, MOVED and ASK while a slot
// moves, a deadline on a stopped node, a primary killed and replaced, a function library
// lost and loaded again, an ACL user and a wrong password, and a server that is not a
// cluster. The reactor runs on the test's thread, in stretches between the steps that
// change the cluster (the fixture's calls), so nothing races.
#include <signal.h>

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "redis_cluster/cluster_client.h"
#include "runtime/clock.h"
#include "runtime/mailbox.h"
#include "runtime/reactor.h"
#include "tests/support/allocation_count.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"
#include "tests/integration/redis_cluster/redis_server.h"

namespace redis_cluster {
namespace {

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

// The port of a "host:port" as the client names nodes.
uint16_t port_of(const std::string& host_port) {
  return static_cast<uint16_t>(std::atoi(host_port.c_str() + host_port.rfind(':') + 1));
}

// A reactor on the test's thread and one client on it; the servers are the subclasses'.
class ClientOnReactorTest : public ::testing::Test {
 protected:
  ClientOnReactorTest() : mailbox_(1), reactor_(0, mailbox_, runtime::SystemClock::instance(), test_reactor()) {}

  void SetUp() override { ASSERT_TRUE(reactor_.init().ok()); }
  void TearDown() override {
    if (client_ == nullptr) return;
    client_->stop();
    run_until([&] { return client_->quiescent(); }, 2000);
    client_.reset();
  }

  void use_seeds(const std::string& url) {
    auto parsed = parse_seed_list(url);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    seeds_ = *parsed;
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

// A cluster of its own for every test: tests kill nodes, move slots, flush libraries.
class ClusterClientTest : public ClientOnReactorTest {
 protected:
  virtual integration::RedisClusterOptions cluster_options() const { return {}; }

  void SetUp() override {
    ClientOnReactorTest::SetUp();
    if (HasFatalFailure()) return;
    cluster_ = std::make_unique<integration::RedisCluster>(cluster_options());
    ASSERT_TRUE(cluster_->ok()) << cluster_->error();
    use_seeds(cluster_->seed_url());
  }
  // The client is stopped before the cluster, so it never sees the whole cluster go.
  void TearDown() override {
    ClientOnReactorTest::TearDown();
    if (cluster_ != nullptr) cluster_->stop();
  }

  integration::CliReply cli(const std::vector<std::string>& args, const std::string& node) {
    return cluster_->cli(args, port_of(node));
  }

  std::unique_ptr<integration::RedisCluster> cluster_;
};

std::string another_primary(const ClusterClient& client, const std::string& than) {
  for (const uint16_t slot : {uint16_t{0}, uint16_t{8000}, uint16_t{16383}}) {
    if (client.owner_of(slot) != than) return client.owner_of(slot);
  }
  return {};
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

// Answers counted, nothing kept: a call that allocates nothing of its own.
struct CountingCall final : Call {
  void on_reply(const Reply& reply) override { ++(reply.is_error() ? *errors : *replies); }
  void on_failed(CallFailure) override { ++*errors; }
  int* replies = nullptr;
  int* errors = nullptr;
};

// The calls of one loop turn, each to a key of its own, all answered; spread over every
// primary unless one_slot puts them all in one slot.
class BatchTest : public ClusterClientTest {
 protected:
  void call_in_one_turn(int count, bool one_slot) {
    std::vector<CountingCall> calls(count);
    for (int i = 0; i < count; ++i) {
      const std::string key = one_slot ? absl::StrCat("{batch}:", i) : absl::StrCat("batch:", i);
      const std::string_view args[] = {"INCR", key};
      calls[i].replies = &replies_;
      calls[i].errors = &errors_;
      ASSERT_TRUE(client_->call(key, args, in_ms(5000), calls[i]));
    }
    const int expected = replies_ + count;
    run_until([&] { return replies_ + errors_ >= expected; }, 10000);
    EXPECT_EQ(errors_, 0);
    EXPECT_EQ(replies_, expected);
  }
  // Every primary connected and past its handshake (AUTH, libraries, CONFIG GET), so what
  // the test sends next is the calls alone.
  void warm() {
    start_up();
    call_in_one_turn(300, false);
  }
  int replies_ = 0;
  int errors_ = 0;
};

TEST_F(BatchTest, OneTurnsCallsToOnePrimaryLeaveInOneSend) {
  warm();
  const uint64_t before = client_->counters().sends.get();
  call_in_one_turn(200, true);
  EXPECT_EQ(client_->counters().sends.get() - before, 1u);
}

TEST_F(BatchTest, OneTurnsCallsSpreadOverThreePrimariesLeaveInOneSendEach) {
  warm();
  const uint64_t before = client_->counters().sends.get();
  call_in_one_turn(200, false);
  EXPECT_EQ(client_->counters().sends.get() - before, 3u);
}

// Calls made from a reply callback, in the middle of a turn, go out together when the
// turn ends: the send that carried the first call has completed by then, and its
// completion sends nothing on its own.
TEST_F(BatchTest, CallsMadeWhileRepliesAreReadLeaveInOneSendAtTheTurnsEnd) {
  warm();
  struct Chained final : Call {
    void on_reply(const Reply&) override {
      for (CountingCall& next : followers) {
        const std::string_view args[] = {"INCR", "{batch}:followers"};
        EXPECT_TRUE(client->call("{batch}:followers", args, deadline_ns, next));
      }
    }
    void on_failed(CallFailure) override { ADD_FAILURE() << "the first call failed"; }
    ClusterClient* client = nullptr;
    int64_t deadline_ns = 0;
    std::vector<CountingCall> followers;
  };
  Chained first;
  first.client = client_.get();
  first.deadline_ns = in_ms(5000);
  first.followers.resize(50);
  for (CountingCall& f : first.followers) {
    f.replies = &replies_;
    f.errors = &errors_;
  }
  const uint64_t before = client_->counters().sends.get();
  const std::string_view args[] = {"INCR", "{batch}:first"};
  const int expected = replies_ + 50;
  ASSERT_TRUE(client_->call("{batch}:first", args, in_ms(5000), first));
  run_until([&] { return replies_ + errors_ >= expected; }, 10000);
  EXPECT_EQ(replies_, expected);
  // The first call's send, then the fifty followers' one.
  EXPECT_EQ(client_->counters().sends.get() - before, 2u);
}

TEST_F(BatchTest, AWarmClientAllocatesNothingPerCall) {
  warm();
  call_in_one_turn(300, false);  // the slots' buffers and every node's arena at their size
  std::vector<CountingCall> calls(300);
  std::vector<std::string> keys;
  for (int i = 0; i < 300; ++i) {
    keys.push_back(absl::StrCat("batch:", i));
    calls[i].replies = &replies_;
    calls[i].errors = &errors_;
  }
  const int expected = replies_ + 300;
  const int* replies = &replies_;
  const std::function<bool()> all_answered = [replies, expected] { return *replies >= expected; };
  const uint64_t allocations = decision::testing::allocations_while([&] {
    for (int i = 0; i < 300; ++i) {
      const std::string_view args[] = {"INCR", keys[i]};
      ASSERT_TRUE(client_->call(keys[i], args, in_ms(5000), calls[i]));
    }
    Until until(reactor_, all_answered, 10000);
    reactor_.run();
  });
  EXPECT_EQ(replies_, expected);
  EXPECT_EQ(allocations, 0u);
}

TEST_F(ClusterClientTest, MovedAfterASlotMovesUpdatesTheOwnerAndResends) {
  ClusterClient& client = start_up();
  const std::string key = "moved:key";
  ASSERT_EQ(call({"SET", key, "before the move"}).text, "OK");
  const uint16_t slot = key_slot(key);
  const std::string from = client.owner_of(slot);
  const std::string to = another_primary(client, from);
  ASSERT_TRUE(cluster_->migrate_slot_start(slot, port_of(from), port_of(to))) << cluster_->error();
  ASSERT_TRUE(cluster_->migrate_slot_finish(slot, port_of(from), port_of(to))) << cluster_->error();
  EXPECT_EQ(call({"GET", key}).text, "before the move");
  EXPECT_EQ(client.counters().moved.get(), 1u);
  EXPECT_EQ(client.owner_of(slot), to);
  EXPECT_EQ(call({"GET", key}).text, "before the move");
  EXPECT_EQ(client.counters().moved.get(), 1u) << "the second call goes straight to the new owner";
}

TEST_F(ClusterClientTest, AskDuringAMigrationSendsAskingThenTheCommandToTheImportingNode) {
  ClusterClient& client = start_up();
  const std::string key = "ask:key";
  ASSERT_EQ(call({"SET", key, "migrating"}).text, "OK");
  const uint16_t slot = key_slot(key);
  const std::string from = client.owner_of(slot);
  const std::string to = another_primary(client, from);
  ASSERT_TRUE(cluster_->migrate_slot_start(slot, port_of(from), port_of(to))) << cluster_->error();
  // The key moved, the slot still the source's: the source answers ASK.
  const integration::CliReply moved =
      cli({"MIGRATE", "127.0.0.1", std::to_string(port_of(to)), key, "0", "5000"}, from);
  ASSERT_TRUE(moved) << moved.error;
  EXPECT_EQ(call({"GET", key}).text, "migrating");
  EXPECT_EQ(client.counters().asked.get(), 1u);
  EXPECT_EQ(client.owner_of(slot), from) << "ASK changes no owner";
  ASSERT_TRUE(cluster_->migrate_slot_finish(slot, port_of(from), port_of(to))) << cluster_->error();
}

TEST_F(ClusterClientTest, ACallToAStoppedNodeTimesOutAtItsDeadlineAndTheLateReplyIsDropped) {
  ClusterClient& client = start_up();
  const std::string key = "deadline:key";
  ASSERT_EQ(call({"SET", key, "v"}).text, "OK");
  const uint16_t owner = port_of(client.owner_of(key_slot(key)));
  ASSERT_TRUE(cluster_->kill_node(owner, SIGSTOP)) << cluster_->error();
  const RecordingCall late = call({"GET", key}, 200);
  ASSERT_TRUE(cluster_->kill_node(owner, SIGCONT)) << cluster_->error();
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
  const integration::CliReply killed = cli({"CLIENT", "KILL", "TYPE", "NORMAL"}, owner);
  ASSERT_TRUE(killed) << killed.error;
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

TEST_F(ClusterClientTest, APrimaryKilledIsReplacedByItsPromotedReplica) {
  ClusterClient& client = start_up();
  const std::string key = "failover:key";
  ASSERT_EQ(call({"SET", key, "kept"}).text, "OK");
  ASSERT_EQ(call({"WAIT", "1", "1000"}, 2000, key).kind, Reply::Kind::kInteger);
  const std::string victim = client.owner_of(key_slot(key));
  ASSERT_TRUE(cluster_->kill_node(port_of(victim))) << cluster_->error();
  run_until([&] { return client.state() != ClusterState::kUp; }, 5000);
  EXPECT_EQ(client.state(), ClusterState::kPartial);
  EXPECT_EQ(call({"GET", key}).failure, CallFailure::kUnavailable) << "no wait for the deadline";
  run_until([&] { return client.state() == ClusterState::kUp; }, 60000);
  EXPECT_EQ(client.state(), ClusterState::kUp);
  EXPECT_NE(client.owner_of(key_slot(key)), victim);
  EXPECT_EQ(call({"GET", key}).text, "kept");
  // The node back, as a replica of whoever replaced it; the client still served.
  ASSERT_TRUE(cluster_->wait_for_failover(port_of(victim))) << cluster_->error();
  ASSERT_TRUE(cluster_->restart_node(port_of(victim))) << cluster_->error();
  EXPECT_NE(client.owner_of(key_slot(key)), victim);
  EXPECT_EQ(call({"GET", key}).text, "kept");
  EXPECT_EQ(client.state(), ClusterState::kUp);
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
  const integration::CliReply flushed = cli({"FUNCTION", "FLUSH"}, client_->owner_of(key_slot(key)));
  ASSERT_TRUE(flushed) << flushed.error;
  EXPECT_EQ(call({"FCALL", "decisiond_test_echo", "1", key, "again"}, 1000, key).text, "again");
  EXPECT_EQ(client_->counters().library_loads.get(), loads + 1);
  EXPECT_EQ(client_->counters().error_replies.get(), 0u);
}

// Every node lets in only this user, with this password (the default user is off).
class AclClusterClientTest : public ClusterClientTest {
 protected:
  integration::RedisClusterOptions cluster_options() const override {
    integration::RedisClusterOptions options;
    options.acl_user = "decisiond_test";
    options.password = "right password";
    return options;
  }
};

TEST_F(AclClusterClientTest, AnAclUserWithItsPasswordGetsIn) {
  ClusterConfig config;
  config.user = "decisiond_test";
  config.password = "right password";
  start(config);
  run_until([&] { return client_->state() == ClusterState::kUp; }, 5000);
  EXPECT_EQ(client_->state(), ClusterState::kUp);
  EXPECT_EQ(call({"PING"}).text, "PONG");
}

TEST_F(AclClusterClientTest, AWrongPasswordIsAuthFailed) {
  ClusterConfig config;
  config.user = "decisiond_test";
  config.password = "wrong password";
  start(config);
  run_until([&] { return client_->state() == ClusterState::kAuthFailed; }, 5000);
  EXPECT_EQ(client_->state(), ClusterState::kAuthFailed);
  const RecordingCall refused = call({"PING"});
  EXPECT_EQ(refused.failure, CallFailure::kUnavailable);
}

using PlainServerClientTest = ClientOnReactorTest;

TEST_F(PlainServerClientTest, AServerWithoutClusterSupportIsNotACluster) {
  integration::RedisServer server;
  ASSERT_TRUE(server.ok()) << server.error();
  use_seeds(server.url());
  start();
  run_until([&] { return client_->state() == ClusterState::kNotCluster; }, 5000);
  EXPECT_EQ(client_->state(), ClusterState::kNotCluster);
  ClientOnReactorTest::TearDown();  // the client stopped while the server still runs
}

}  // namespace
}  // namespace redis_cluster
