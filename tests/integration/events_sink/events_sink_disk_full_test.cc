// A full disk with a sink (docs/events.md "Writing" and "Shipping to NATS JetStream"): the
// event log's rules hold as without one (requests served, /readyz 503 while the disk
// refuses, the held lines written once it has room), the shipper's refused checkpoints are
// counted, and every line that reached the log is in the stream once. A 512 KiB tmpfs over
// <state-dir>/events, filled by the test; needs root for the mount, skipped otherwise.
#include "gtest/gtest.h"
#include "tests/integration/events_sink/shipped_stream.h"
#include "tests/integration/nats_cluster/nats_cluster_fixture.h"
#include "tests/integration/nats_cluster/nats_inspector.h"
#include "tests/integration/readyz.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tmpfs_mount.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

// Decisions and their impressions; every one answered.
void serve(ServerProcess& server, const std::string& prefix, int count) {
  for (int i = 0; i < count; ++i) {
    const CurlReply reply = decide(server, prefix + std::to_string(i), 2);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) ASSERT_EQ(call_tracking(server, c.impression).status, 204);
  }
}

TEST(EventsSinkDiskFull, TheLogsRulesHoldAndEveryLineThatReachedItIsShippedOnce) {
  NatsCluster nats;
  ASSERT_TRUE(nats.ok()) << nats.error();
  TempFile catalog("catalog.json", capped_catalog_json());
  StateDir state;
  TmpfsMount disk(state.path() + "/events", 512 * 1024);
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a small tmpfs over the events folder: " << disk.why_not();
  ServerProcess server(standard_flags({"--catalog=" + catalog.path(), state.flag(), "--events-flush=100ms",
                                       "--node-id=node0", "--events-sink=" + nats.client_url()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  serve(server, "before-full-", 20);
  ASSERT_TRUE(wait_until_caught_up(server));

  disk.fill();
  serve(server, "while-full-", 40);
  EXPECT_TRUE(wait_for_readyz(server, 503)) << "unready while the disk refuses";
  disk.free_space();
  EXPECT_TRUE(wait_for_readyz(server, 200)) << "ready once it has room";
  serve(server, "after-full-", 20);

  EXPECT_TRUE(wait_until_caught_up(server)) << server.stderr_text();
  NatsInspector inspector(nats.server_urls());
  ASSERT_TRUE(inspector.ok()) << inspector.error();
  const auto messages = wait_for_stream_to_hold(inspector, {state.path()});
  ASSERT_TRUE(messages) << inspector.error();
  EXPECT_TRUE(StreamHoldsEachLineOnce(*messages, logged_lines("node0", state.path())));
  EXPECT_EQ(node_metric(server, "decisiond_events_ship_publish_errors_total"), 0);
}

}  // namespace
}  // namespace integration
