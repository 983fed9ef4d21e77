// The NATS cluster fixture itself: what cluster mode's tests count on it for.
#include "tests/integration/nats_cluster/nats_cluster_fixture.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "tests/integration/nats_cluster/nats_inspector.h"

namespace integration {
namespace {

using namespace std::chrono_literals;

constexpr char kStream[] = "EVENTS";
constexpr char kSubject[] = "events.impression";
constexpr auto kDuplicateWindow = std::chrono::milliseconds(2min);

// Durations go to the test's output: how long the fixture and the cluster take here, not
// an assertion.
class Stopwatch {
 public:
  void note(const std::string& what) const {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_);
    std::cout << "[ timing ] " << what << ": " << ms.count() << " ms\n";
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string id_of(int i) { return "event-" + std::to_string(i); }

// Publishes messages [first, last) with ids event-<i> and bodies body-<i>.
void publish_range(NatsInspector& nats, int first, int last) {
  for (int i = first; i < last; ++i) {
    const PublishAck ack = nats.publish(kSubject, "body-" + std::to_string(i), id_of(i));
    ASSERT_TRUE(ack.ok) << ack.error;
    ASSERT_FALSE(ack.duplicate) << id_of(i);
  }
}

// The stream holds exactly messages [0, count), once each, in order.
void expect_stream_holds(NatsInspector& nats, int count) {
  const auto messages = nats.all_messages(kStream);
  ASSERT_TRUE(messages) << nats.error();
  ASSERT_EQ(messages->size(), static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    const StoredMessage& m = (*messages)[i];
    EXPECT_EQ(m.sequence, static_cast<uint64_t>(i + 1));
    EXPECT_EQ(m.subject, kSubject);
    EXPECT_EQ(m.msg_id, id_of(i));
    EXPECT_EQ(m.data, "body-" + std::to_string(i));
  }
}

TEST(NatsCluster, ComesUpWithEveryServerInOneJetStreamMetaGroup) {
  const Stopwatch watch;
  NatsCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  watch.note("cluster whole");
  const std::vector<uint16_t> ports = cluster.ports();
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_EQ(cluster.client_url(), "nats://127.0.0.1:" + std::to_string(ports[0]) + ",127.0.0.1:" +
                                      std::to_string(ports[1]) + ",127.0.0.1:" + std::to_string(ports[2]));
  EXPECT_EQ(cluster.server_urls(), (std::vector<std::string>{"nats://127.0.0.1:" + std::to_string(ports[0]),
                                                             "nats://127.0.0.1:" + std::to_string(ports[1]),
                                                             "nats://127.0.0.1:" + std::to_string(ports[2])}));
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(cluster.running(i));
    EXPECT_EQ(cluster.index_of(cluster.server_name(i)), i);
    EXPECT_TRUE(std::filesystem::is_directory(cluster.root_dir() + "/" + cluster.server_name(i) + "/store/jetstream"));
  }
}

TEST(NatsCluster, ReplicatedStreamStoresEachMessageIdOnceWithinTheDuplicateWindow) {
  NatsCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  NatsInspector nats(cluster.server_urls());
  ASSERT_TRUE(nats.ok()) << nats.error();
  ASSERT_TRUE(nats.create_stream(kStream, {"events.>"}, 3, kDuplicateWindow)) << nats.error();
  const auto info = nats.stream_info(kStream);
  ASSERT_TRUE(info) << nats.error();
  EXPECT_EQ(info->replicas, 3);
  EXPECT_EQ(info->duplicate_window, kDuplicateWindow);
  EXPECT_TRUE(cluster.index_of(info->leader)) << info->leader;

  const Stopwatch watch;
  publish_range(nats, 0, 100);
  watch.note("100 publishes to an R3 stream, one at a time");
  for (int i = 40; i < 50; ++i) {
    const PublishAck again = nats.publish(kSubject, "body-" + std::to_string(i), id_of(i));
    ASSERT_TRUE(again.ok) << again.error;
    EXPECT_TRUE(again.duplicate) << id_of(i);
    EXPECT_EQ(again.sequence, static_cast<uint64_t>(i + 1));
  }
  EXPECT_EQ(nats.stream_message_count(kStream), 100u);
  expect_stream_holds(nats, 100);
  ASSERT_TRUE(nats.wait_until_stream_whole(kStream)) << nats.error();

  ASSERT_TRUE(nats.delete_stream(kStream)) << nats.error();
  EXPECT_FALSE(nats.stream_info(kStream));
}

TEST(NatsCluster, StreamLeaderKilledThePublishesGoOnAndTheRestartedServerCatchesUp) {
  NatsCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  NatsInspector nats(cluster.server_urls());
  ASSERT_TRUE(nats.ok()) << nats.error();
  ASSERT_TRUE(nats.create_stream(kStream, {"events.>"}, 3, kDuplicateWindow)) << nats.error();
  publish_range(nats, 0, 20);
  const auto before = nats.stream_info(kStream);
  ASSERT_TRUE(before) << nats.error();
  const std::optional<int> leader = cluster.index_of(before->leader);
  ASSERT_TRUE(leader) << before->leader;

  const Stopwatch since_kill;
  ASSERT_TRUE(cluster.kill_server(*leader, SIGKILL)) << cluster.error();
  EXPECT_FALSE(cluster.running(*leader));
  const PublishAck first = nats.publish(kSubject, "body-20", id_of(20));
  ASSERT_TRUE(first.ok) << first.error;
  since_kill.note("first publish acknowledged after the stream leader's SIGKILL (" +
                  std::to_string(first.attempts) + " attempts)");
  publish_range(nats, 21, 40);
  const auto during = nats.stream_info(kStream);
  ASSERT_TRUE(during) << nats.error();
  EXPECT_NE(during->leader, before->leader);
  EXPECT_EQ(during->messages, 40u);

  const Stopwatch since_restart;
  ASSERT_TRUE(cluster.restart_server(*leader)) << cluster.error();
  ASSERT_TRUE(nats.wait_until_stream_whole(kStream)) << nats.error();
  since_restart.note("killed server restarted, cluster and stream whole again");
  const auto after = nats.stream_info(kStream);
  ASSERT_TRUE(after) << nats.error();
  bool rejoined = false;
  for (const StreamPeer& peer : after->followers) rejoined |= peer.name == before->leader && peer.current;
  EXPECT_TRUE(rejoined || after->leader == before->leader) << before->leader << " is not a current replica";
  expect_stream_holds(nats, 40);
}

TEST(NatsCluster, WithAUserAndPasswordOnlyAClientThatLogsInGetsIn) {
  NatsClusterOptions options;
  options.user = "decisiond";
  // Characters the configuration format would otherwise read as a comment, a variable or
  // a block; not '"' or '\\', which libnats 3.4.1 sends unescaped (see NatsClusterOptions).
  options.password = "s3cret pass#1$x{}'";
  NatsCluster cluster(options);
  ASSERT_TRUE(cluster.ok()) << cluster.error();

  NatsInspector anonymous(cluster.server_urls());
  EXPECT_FALSE(anonymous.ok());
  EXPECT_NE(anonymous.error().find("Authorization"), std::string::npos) << anonymous.error();
  NatsInspector wrong(cluster.server_urls(), {"decisiond", "not-the-password"});
  EXPECT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().find("Authorization"), std::string::npos) << wrong.error();

  NatsInspector nats(cluster.server_urls(), {"decisiond", options.password});
  ASSERT_TRUE(nats.ok()) << nats.error();
  ASSERT_TRUE(nats.create_stream(kStream, {"events.>"}, 3, kDuplicateWindow)) << nats.error();
  publish_range(nats, 0, 5);
  expect_stream_holds(nats, 5);
}

TEST(NatsCluster, EveryServerStoppedAndRestartedKeepsTheStreamAndItsMessages) {
  NatsCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  {
    NatsInspector nats(cluster.server_urls());
    ASSERT_TRUE(nats.ok()) << nats.error();
    ASSERT_TRUE(nats.create_stream(kStream, {"events.>"}, 3, kDuplicateWindow)) << nats.error();
    publish_range(nats, 0, 50);
  }
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(cluster.kill_server(i, SIGTERM)) << cluster.error();

  const Stopwatch watch;
  ASSERT_TRUE(cluster.restart_servers({0, 1, 2})) << cluster.error();
  watch.note("every server restarted, cluster whole");
  NatsInspector nats(cluster.server_urls());
  ASSERT_TRUE(nats.ok()) << nats.error();
  ASSERT_TRUE(nats.wait_until_stream_whole(kStream)) << nats.error();
  watch.note("and the stream whole");
  const auto info = nats.stream_info(kStream);
  ASSERT_TRUE(info) << nats.error();
  EXPECT_EQ(info->replicas, 3);
  EXPECT_EQ(info->duplicate_window, kDuplicateWindow);
  expect_stream_holds(nats, 50);
  // The duplicate window outlived the restart too.
  const PublishAck again = nats.publish(kSubject, "body-7", id_of(7));
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_TRUE(again.duplicate);
}

TEST(NatsCluster, PausedServerMakesTheClusterNotReadyUntilResumed) {
  NatsCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  ASSERT_TRUE(cluster.kill_server(1, SIGSTOP)) << cluster.error();
  EXPECT_TRUE(cluster.running(1));
  EXPECT_FALSE(cluster.wait_until_ready(1s));
  EXPECT_NE(cluster.error().find(cluster.server_name(1)), std::string::npos) << cluster.error();
  ASSERT_TRUE(cluster.kill_server(1, SIGCONT)) << cluster.error();
  EXPECT_TRUE(cluster.wait_until_ready()) << cluster.error();
}

TEST(NatsCluster, StopLeavesNoProcessAndNoDirectoryBehind) {
  NatsCluster cluster;
  ASSERT_TRUE(cluster.ok()) << cluster.error();
  const std::string dir = cluster.root_dir();
  std::vector<pid_t> pids;
  for (int i = 0; i < 3; ++i) pids.push_back(cluster.pid(i));
  cluster.stop();
  for (const pid_t pid : pids) EXPECT_NE(::kill(pid, 0), 0) << "pid " << pid << " still exists";
  EXPECT_FALSE(std::filesystem::exists(dir)) << dir;
  cluster.stop();  // idempotent
}

}  // namespace
}  // namespace integration
