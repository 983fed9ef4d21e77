// Event shipping's bad configurations (docs/events.md "Shipping to NATS JetStream",
// docs/flags.md): a flag that cannot work is exit 2 with one line naming it; servers that
// do not answer, a stream that cannot be created and credentials the servers refuse leave
// the node serving, the state said once on stderr and shown in /metrics, never a crash and
// never a line lost: the lines stay on disk, and shipping resumes once it is fixed.
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/events_sink/shipped_stream.h"
#include "tests/integration/nats_cluster/nats_cluster_fixture.h"
#include "tests/integration/nats_cluster/nats_inspector.h"
#include "tests/integration/test_catalog.h"

namespace integration {
namespace {

using namespace std::chrono_literals;

// Generous: reached only when something is wrong, never a performance assertion.
constexpr auto kSaidTimeout = 30s;

struct Refusal {
  int code = -1;
  std::string stderr_text;
};

Refusal refusal_of(std::vector<std::string> flags) {
  ServerProcess server(standard_flags(std::move(flags)));
  const std::optional<ExitStatus> status = server.wait_for_exit();
  return {status ? status->code : -1, server.stderr_text()};
}

size_t lines_in(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

// Until the node's stderr holds one of the texts.
bool wait_for_said_any(ServerProcess& node, const std::vector<std::string>& texts) {
  const auto deadline = std::chrono::steady_clock::now() + kSaidTimeout;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string said = node.stderr_text();
    for (const std::string& text : texts) {
      if (said.find(text) != std::string::npos) return true;
    }
    std::this_thread::sleep_for(50ms);
  }
  return false;
}

bool wait_for_said(ServerProcess& node, const std::string& text) { return wait_for_said_any(node, {text}); }

// A few decisions and their impressions: lines to ship. The node serves them all.
void serve_some(ServerProcess& node) {
  for (int i = 0; i < 20; ++i) {
    const CurlReply reply = decide(node, "config-user-" + std::to_string(i), 2);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) EXPECT_EQ(call_tracking(node, c.impression).status, 204);
  }
}

// Node 0 caught up, and the stream holds each line of its log once.
void expect_first_node_shipped_exactly_once(NatsCluster& nats, ClusterNodes& nodes) {
  NatsInspector inspector(nats.server_urls(), {nats.options().user, nats.options().password});
  ASSERT_TRUE(inspector.ok()) << inspector.error();
  EXPECT_TRUE(wait_until_caught_up(nodes.node(0)));
  const auto messages = wait_for_stream_to_hold(inspector, {nodes.state_dir(0)});
  ASSERT_TRUE(messages) << inspector.error();
  EXPECT_TRUE(StreamHoldsEachLineOnce(*messages, logged_lines_of({nodes.state_dir(0)})));
}

TEST(EventsSinkConfig, AMalformedSinkIsExitTwoWithOneLineNamingTheFlag) {
  for (const char* sink : {"nats://", "nats://127.0.0.1", "nats://127.0.0.1:0", "nats://127.0.0.1:99999",
                           "http://127.0.0.1:4222", "nats://127.0.0.1:4222,", "nats://127.0.0.1:4222/name"}) {
    const Refusal refusal = refusal_of({std::string("--events-sink=") + sink});
    EXPECT_EQ(refusal.code, 2) << sink << ": " << refusal.stderr_text;
    EXPECT_EQ(lines_in(refusal.stderr_text), 1u) << refusal.stderr_text;
    EXPECT_NE(refusal.stderr_text.find("--events-sink"), std::string::npos) << refusal.stderr_text;
  }
}

TEST(EventsSinkConfig, FlagsThatCannotWorkAreExitTwoNamingTheirFlag) {
  TempFile readable("password", "secret\n");
  chmod(readable.path().c_str(), 0644);
  TempFile creds("nats.creds", "-----BEGIN NATS USER JWT-----\n");
  chmod(creds.path().c_str(), 0600);
  TempFile password("password", "secret\n");
  chmod(password.path().c_str(), 0600);
  const std::string sink = "--events-sink=nats://127.0.0.1:4222";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{sink, "--events-sink-user=u", "--events-sink-password-file=" + readable.path()}, "--events-sink-password-file"},
      {{sink, "--events-sink-user=u"}, "--events-sink-user"},
      {{sink, "--events-sink-password-file=" + password.path()}, "--events-sink-password-file"},
      {{sink, "--events-sink-creds=" + creds.path(), "--events-sink-user=u",
        "--events-sink-password-file=" + password.path()},
       "--events-sink-creds"},
      {{"--events-sink-user=u"}, "--events-sink-user"},
      {{sink, "--events-replicas=0"}, "--events-replicas"},
      {{sink, "--events-stream=a.b"}, "--events-stream"},
      {{sink, "--events-retain=-1s"}, "--events-retain"},
      {{sink, "--events-run-lines=0"}, "--events-run-lines"},
      {{sink, "--events-run-lines=65537"}, "--events-run-lines"},
      {{sink, "--events-run-bytes=1023"}, "--events-run-bytes"},
      {{sink, "--events-run-bytes=65MiB"}, "--events-run-bytes"},
      {{sink, "--events-run-bytes=lots"}, "--events-run-bytes"},
      {{sink, "--events-run-wait=0s"}, "--events-run-wait"},
      {{sink, "--events-run-wait=1500us"}, "--events-run-wait"},
      {{sink, "--events-run-wait=2s"}, "--events-run-wait"},
      {{sink, "--node-id=node*"}, "--node-id"},
  };
  for (const auto& [flags, named] : cases) {
    const Refusal refusal = refusal_of(flags);
    EXPECT_EQ(refusal.code, 2) << named << ": " << refusal.stderr_text;
    EXPECT_EQ(lines_in(refusal.stderr_text), 1u) << refusal.stderr_text;
    EXPECT_NE(refusal.stderr_text.find(named), std::string::npos) << refusal.stderr_text;
  }
}

TEST(EventsSinkConfig, ServersThatDoNotAnswerLeaveTheNodeServingAndItShipsOnceTheyDo) {
  NatsCluster nats;
  ASSERT_TRUE(nats.ok()) << nats.error();
  // Paused: connections are accepted and never answered. (Every server killed and restarted
  // is the other way, under load: EventsSink.AllNatsServersDown...)
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(nats.kill_server(i, SIGSTOP));
  ClusterNodes nodes(1, "local", {"--events-sink=" + nats.client_url()});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  serve_some(nodes.node(0));
  // Which of the two it says first is the library's timing: a first attempt that waits out
  // its connect timeout before returning is "closed" at once (and later attempts are not
  // said again), one handed to the library's reconnect thread is "connecting" until then.
  EXPECT_TRUE(wait_for_said_any(nodes.node(0), {"events sink: connecting to " + nats.client_url(),
                                                "events sink: connection closed (NATS connect: Timeout"}))
      << nodes.node(0).stderr_text();
  EXPECT_NE(node_metric(nodes.node(0), "decisiond_events_sink_connection_state"), 1);
  // Measured every 250 ms from the lines the log has written, which may lag the replies.
  EXPECT_TRUE(wait_for_more(nodes.node(0), "decisiond_events_ship_lines_behind", 0));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(nats.kill_server(i, SIGCONT));
  ASSERT_TRUE(nats.wait_until_ready()) << nats.error();
  expect_first_node_shipped_exactly_once(nats, nodes);
}

TEST(EventsSinkConfig, AStreamThatCannotBeCreatedIsSaidWithTheServersReasonAndUsedOnceItExists) {
  NatsCluster nats;
  ASSERT_TRUE(nats.ok()) << nats.error();
  ClusterNodes nodes(1, "local", {"--events-sink=" + nats.client_url(), "--events-replicas=5"});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  serve_some(nodes.node(0));
  EXPECT_TRUE(wait_for_said(nodes.node(0), "stream decisiond-events cannot be set up"));
  EXPECT_TRUE(wait_for_value(nodes.node(0), "decisiond_events_sink_stream_state", 4));
  // Measured every 250 ms from the lines the log has written, which may lag the replies.
  EXPECT_TRUE(wait_for_more(nodes.node(0), "decisiond_events_ship_lines_behind", 0));
  // An operator makes it with three replicas: the node uses it as it is, and says how it differs.
  NatsInspector inspector(nats.server_urls());
  ASSERT_TRUE(inspector.ok()) << inspector.error();
  ASSERT_TRUE(inspector.create_stream(kEventsStream, {"decisiond.events.>"}, 3, 2min)) << inspector.error();
  EXPECT_TRUE(wait_for_said(nodes.node(0), "exists with other settings, used as it is: replicas 3 (wanted 5)"));
  EXPECT_TRUE(wait_for_value(nodes.node(0), "decisiond_events_sink_stream_state", 3));
  expect_first_node_shipped_exactly_once(nats, nodes);
}

TEST(EventsSinkConfig, CredentialsTheServersRefuseAreSaidAndTheLinesWaitOnDisk) {
  NatsCluster nats(NatsClusterOptions{.servers = 3, .user = "shipper", .password = "right-password"});
  ASSERT_TRUE(nats.ok()) << nats.error();
  TempFile wrong("password", "wrong-password\n");
  chmod(wrong.path().c_str(), 0600);
  const std::vector<std::string> flags = {"--events-sink=" + nats.client_url(), "--events-sink-user=shipper"};
  std::vector<std::string> wrong_flags = flags;
  wrong_flags.push_back("--events-sink-password-file=" + wrong.path());
  ClusterNodes nodes(1, "local", wrong_flags);
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  serve_some(nodes.node(0));
  EXPECT_TRUE(wait_for_said(nodes.node(0), "events sink: credentials refused by the servers"));
  EXPECT_TRUE(wait_for_value(nodes.node(0), "decisiond_events_sink_connection_state", 4));
  // Measured every 250 ms from the lines the log has written, which may lag the replies.
  EXPECT_TRUE(wait_for_more(nodes.node(0), "decisiond_events_ship_lines_behind", 0));
  // Fixed: the node restarted with the right password ships what waited, once.
  TempFile right("password", "right-password\n");
  chmod(right.path().c_str(), 0600);
  std::vector<std::string> right_flags = flags;
  right_flags.push_back("--events-sink-password-file=" + right.path());
  nodes.set_extra_flags(right_flags);
  ASSERT_TRUE(nodes.restart(0, SIGTERM)) << nodes.node(0).start_error();
  serve_some(nodes.node(0));
  expect_first_node_shipped_exactly_once(nats, nodes);
}

}  // namespace
}  // namespace integration
