// Retention without loss (docs/events.md "Shipping to NATS JetStream", "Retention"): with a
// sink, a log file goes once it is closed, shipped, older than --events-retain and not read
// at start (replayed after the snapshot, or scanned for unapplied impressions); without a
// sink nothing goes, as before.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/events_sink/shipped_stream.h"
#include "tests/integration/nats_cluster/nats_cluster_fixture.h"
#include "tests/integration/nats_cluster/nats_inspector.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/wall_clock.h"

namespace integration {
namespace {

using namespace std::chrono_literals;

// Generous: reached only when something is wrong, never a performance assertion.
constexpr auto kFilesTimeout = 120s;
constexpr size_t kFilesPerCore = 4;

// Small files, kept no time after they are shipped, a tracking TTL of a second (start-up's
// unapplied scan reads files written within two), snapshots every second.
std::vector<std::string> retention_flags() {
  return {"--events-file-bytes=64KiB", "--events-retain=0s", "--tracking-ttl=1s", "--snapshot-interval=1s"};
}

size_t log_files(const std::string& state_dir, int core) {
  size_t files = 0;
  std::error_code error;
  const auto dir = std::filesystem::path(state_dir) / "events" / ("core-" + std::to_string(core));
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.path().extension() == ".jsonl") ++files;
  }
  return files;
}

// Decisions until both cores have rotated through a few files.
void fill_files(ServerProcess& node, const std::string& state_dir) {
  const auto deadline = std::chrono::steady_clock::now() + kFilesTimeout;
  for (int i = 0; std::chrono::steady_clock::now() < deadline; ++i) {
    if (log_files(state_dir, 0) >= kFilesPerCore && log_files(state_dir, 1) >= kFilesPerCore) return;
    const CurlReply reply = decide(node, "retained-user-" + std::to_string(i % 500), 2);
    ASSERT_EQ(reply.status, 200) << reply.body;
  }
}

TEST(EventsSinkRetention, ShippedFilesPastTheRetentionGoAndEveryLineStaysInTheStream) {
  NatsCluster nats;
  ASSERT_TRUE(nats.ok()) << nats.error();
  std::vector<std::string> flags = retention_flags();
  flags.push_back("--events-sink=" + nats.client_url());
  ClusterNodes nodes(1, "local", flags);
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  fill_files(nodes.node(0), nodes.state_dir(0));
  ASSERT_TRUE(wait_until_caught_up(nodes.node(0)));
  // A snapshot of every core after the last line: start-up no longer replays the files.
  ASSERT_TRUE(wait_for_snapshots_since(nodes.node(0), snapshots_written(nodes.node(0))));
  const std::map<std::string, std::string> logged = logged_lines_of({nodes.state_dir(0)});
  const size_t files_before = log_files(nodes.state_dir(0), 0) + log_files(nodes.state_dir(0), 1);
  // A file must be last written more than two tracking TTLs ago: time itself, which no state
  // of the server shows sooner.
  sleep_until_wall_s(wall_s() + 3);
  // The first retention pass runs as the shipper starts.
  ASSERT_TRUE(nodes.restart(0, SIGTERM)) << nodes.node(0).start_error();
  EXPECT_TRUE(wait_for_more(nodes.node(0), "decisiond_events_files_removed_total", 0));
  // Each core keeps the files start-up replays (from its snapshot on) and its live one.
  EXPECT_GE(log_files(nodes.state_dir(0), 0), 1u);
  EXPECT_GE(log_files(nodes.state_dir(0), 1), 1u);
  EXPECT_LT(log_files(nodes.state_dir(0), 0) + log_files(nodes.state_dir(0), 1), files_before + 2);
  NatsInspector inspector(nats.server_urls());
  ASSERT_TRUE(inspector.ok()) << inspector.error();
  const auto messages = inspector.all_messages(kEventsStream);
  ASSERT_TRUE(messages) << inspector.error();
  EXPECT_TRUE(StreamHoldsEachLineOnce(*messages, logged));
  // And the node starts again from what is left.
  ASSERT_TRUE(nodes.restart(0, SIGTERM)) << nodes.node(0).start_error();
  EXPECT_EQ(decide(nodes.node(0), "retained-user-after", 2).status, 200);
}

TEST(EventsSinkRetention, WithoutASinkNothingIsRemoved) {
  ClusterNodes nodes(1, "local", retention_flags());
  ASSERT_TRUE(nodes.ok()) << nodes.error();
  fill_files(nodes.node(0), nodes.state_dir(0));
  ASSERT_TRUE(wait_for_snapshots_since(nodes.node(0), snapshots_written(nodes.node(0))));
  const size_t files_before = log_files(nodes.state_dir(0), 0) + log_files(nodes.state_dir(0), 1);
  sleep_until_wall_s(wall_s() + 3);
  ASSERT_TRUE(nodes.restart(0, SIGTERM)) << nodes.node(0).start_error();
  // A start opens a new file per core; none of the old ones went.
  EXPECT_EQ(log_files(nodes.state_dir(0), 0) + log_files(nodes.state_dir(0), 1), files_before + 2);
  EXPECT_FALSE(node_metric(nodes.node(0), "decisiond_events_files_removed_total").has_value());
}

}  // namespace
}  // namespace integration
