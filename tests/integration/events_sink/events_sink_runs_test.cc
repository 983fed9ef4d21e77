// Runs (docs/events.md "Runs"): messages hold several lines, and a node killed while runs
// are on their way, restarted with other run bounds, cuts its runs differently and still
// stores each line once: the runs the stream took after the node died are read back, and
// no line of them goes into a run again.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_load.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/events_sink/shipped_stream.h"
#include "tests/integration/nats_cluster/nats_cluster_fixture.h"
#include "tests/integration/nats_cluster/nats_inspector.h"

namespace integration {
namespace {

using namespace std::chrono_literals;

// Lines per message at most, before and after the restart.
constexpr int kLinesBefore = 40;
constexpr int kLinesAfter = 3;

// The most lines one message of the stream holds.
size_t longest_run(const std::vector<StoredMessage>& messages) {
  size_t longest = 0;
  for (const StoredMessage& m : messages) {
    longest = std::max<size_t>(longest, 1 + std::count(m.data.begin(), m.data.end(), '\n'));
  }
  return longest;
}

void for_every_server(NatsCluster& nats, int signal) {
  for (int i = 0; i < 3; ++i) {
    if (nats.pid(i) > 0) ::kill(nats.pid(i), signal);
  }
}

TEST(EventsSinkRuns, ANodeKilledWithRunsInFlightAndRestartedWithOtherBoundsStoresEachLineOnce) {
  NatsCluster nats;
  ASSERT_TRUE(nats.ok()) << nats.error();
  const std::string sink = "--events-sink=" + nats.client_url();
  ClusterNodes nodes(1, "local", {sink, "--events-run-lines=" + std::to_string(kLinesBefore)});
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  const std::vector<std::string> users = numbered_users("run-user", 200);
  {
    ClusterLoad load(nodes, users, 1, /*clicks=*/true);
    ASSERT_TRUE(wait_for_more(nodes.node(0), "decisiond_events_shipped_lines_total", 200));
    // Every server stopped: what the node publishes now waits in the servers' sockets,
    // unacknowledged, and is stored only once they go on, after the node is dead.
    for_every_server(nats, SIGSTOP);
    std::this_thread::sleep_for(500ms);
    std::cout << "[ info ] before SIGKILL: "
              << node_metric(nodes.node(0), "decisiond_events_ship_lines_behind").value_or(-1) << " line(s) behind\n";
    nodes.node(0).send_signal(SIGKILL);
    ASSERT_TRUE(nodes.node(0).wait_for_exit(10s));
    load.stop();  // calls to the dead node fail: not what is checked here
  }
  for_every_server(nats, SIGCONT);
  nodes.set_extra_flags({sink, "--events-run-lines=" + std::to_string(kLinesAfter), "--events-run-bytes=1KiB"});
  ASSERT_TRUE(nodes.restart(0, SIGKILL)) << nodes.node(0).start_error();  // dead already: started again
  {
    ClusterLoad load(nodes, users, 1, /*clicks=*/true);
    ASSERT_TRUE(wait_for_more(nodes.node(0), "decisiond_events_shipped_lines_total", 200));
    load.stop();
  }
  EXPECT_GE(node_metric(nodes.node(0), "decisiond_events_ship_read_backs_total").value_or(0), 1);
  ASSERT_TRUE(wait_until_caught_up(nodes.node(0))) << nodes.node(0).stderr_text();
  NatsInspector inspector(nats.server_urls());
  ASSERT_TRUE(inspector.ok()) << inspector.error();
  const auto messages = wait_for_stream_to_hold(inspector, {nodes.state_dir(0)});
  ASSERT_TRUE(messages) << inspector.error();
  EXPECT_TRUE(StreamHoldsEachLineOnce(*messages, logged_lines_of({nodes.state_dir(0)})));
  // Runs of the first life, longer than the second's bound, are in the stream.
  EXPECT_GT(longest_run(*messages), static_cast<size_t>(kLinesAfter));
  EXPECT_LE(longest_run(*messages), static_cast<size_t>(kLinesBefore));
}

}  // namespace
}  // namespace integration
