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
  // One call, run to its end.
  RecordingCall call(std::vector<std::string> args, int64_t timeout_ms = 1000) {
    std::vector<std::string_view> views(args.begin(), args.end());
    RecordingCall result;
    EXPECT_TRUE(client_->call(args.size() > 1 ? args[1] : args[0], views, in_ms(timeout_ms), result));
    run_until([&] { return result.done; }, timeout_ms + 2000);
    return result;
  }

  std::vector<NodeAddress> seeds_;
  runtime::Mailbox mailbox_;
  runtime::Reactor reactor_;
  std::unique_ptr<ClusterClient> client_;
};

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

}  // namespace
}  // namespace redis_cluster
