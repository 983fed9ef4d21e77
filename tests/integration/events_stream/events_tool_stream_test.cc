// decisiond-events --from nats://...: the stream cluster nodes ship their logs to reads as
// the union of their state directories does (docs/events.md "Shipping"), line for line.
// The lines are published here as the shipper publishes them (subject per node, message id
// <node>:<core>:<seq>), so the tool is tested without a node.
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/nats_cluster/nats_cluster_fixture.h"
#include "tests/integration/nats_cluster/nats_inspector.h"
#include "tests/integration/redis_cluster/fixture_files.h"
#include "tracking/events/event_line.h"
#include "tracking/events/log_files.h"
#include "tests/support/command_run.h"

namespace integration {
namespace {

using tracking::events::EventRecord;

using ToolRun = test_support::CommandRun;

ToolRun run_tool(const std::string& arguments) {
  const std::string command = std::string(DECISIOND_EVENTS_BINARY) + " " + arguments + " 2>/dev/null";
  return test_support::run_command(command);
}

size_t line_count(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

// Two nodes' logs, two cores each, written as the nodes write them, and published to the
// stream as the shipper does.
class EventsFromStream : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(nats_.ok()) << nats_.error();
    ASSERT_TRUE(inspector_.ok()) << inspector_.error();
    ASSERT_TRUE(inspector_.create_stream("decisiond-events", {"decisiond.events.>"}, 3, std::chrono::minutes(2)))
        << inspector_.error();
    for (int node = 0; node < 2; ++node) {
      dirs_.push_back(make_temp_dir("events-stream"));
      for (uint32_t core = 0; core < 2; ++core) write_core(node, core);
    }
  }

  void TearDown() override {
    for (const std::string& dir : dirs_) std::filesystem::remove_all(dir);
  }

  void write_core(int node, uint32_t core) {
    const std::string directory = tracking::events::core_dir(dirs_[node], core);
    std::filesystem::create_directories(directory);
    std::ofstream file(tracking::events::log_file_path(directory, 0));
    const char* kinds[] = {"decision", "impression", "click"};
    for (uint64_t seq = 0; seq < 30; ++seq) {
      EventRecord r;
      // Equal times across nodes and cores, so the order's tie-breaks are exercised.
      r.time_ms = 1'790'000'000'000 + static_cast<int64_t>(seq / 3) * 1000;
      r.kind = kinds[seq % 3];
      r.ad = 1 + (seq + static_cast<uint64_t>(node)) % 4;
      const std::string user = "u" + std::to_string(seq % 5);  // outlives the record's view of it
      r.user = user;
      r.core = core;
      r.tracking = seq % 3 != 0;
      r.duplicate = seq == 4 && node == 1;
      std::string line;
      tracking::events::append_event_line(r, seq, line);
      file << line;
      const std::string node_id = "node-" + std::to_string(node);
      const PublishAck ack = inspector_.publish("decisiond.events." + node_id, line.substr(0, line.size() - 1),
                                                node_id + ":" + std::to_string(core) + ":" + std::to_string(seq));
      ASSERT_TRUE(ack.ok) << ack.error;
      ++published_;
    }
  }

  std::string state_dirs() const { return "--state-dir " + dirs_[0] + " --state-dir " + dirs_[1]; }
  std::string from() const { return "--from " + nats_.client_url(); }

  NatsCluster nats_;
  NatsInspector inspector_{nats_.server_urls()};
  std::vector<std::string> dirs_;
  size_t published_ = 0;
};

TEST_F(EventsFromStream, PrintOfTheStreamIsPrintOfEveryNodesLogLineForLine) {
  const ToolRun files = run_tool(state_dirs() + " print");
  const ToolRun stream = run_tool(from() + " print");
  ASSERT_EQ(files.status, 0);
  ASSERT_EQ(stream.status, 0);
  EXPECT_EQ(line_count(stream.out), published_);
  EXPECT_EQ(stream.out, files.out);
}

TEST_F(EventsFromStream, SummaryAndFiltersAgreeWithTheFiles) {
  for (const std::string args : {"summary --json", "print --kind impression", "print --ad 2 --user u3",
                                 "print --since 1790000003000 --until 1790000006000 --json"}) {
    const ToolRun files = run_tool(state_dirs() + " " + args);
    const ToolRun stream = run_tool(from() + " " + args);
    ASSERT_EQ(stream.status, 0) << args;
    EXPECT_EQ(stream.out, files.out) << args;
  }
}

TEST_F(EventsFromStream, NodeReadsOneNodesSubjectOnly) {
  const ToolRun one_node = run_tool(from() + " --node node-1 print");
  const ToolRun its_files = run_tool("--state-dir " + dirs_[1] + " print");
  ASSERT_EQ(one_node.status, 0);
  EXPECT_EQ(one_node.out, its_files.out);
  EXPECT_EQ(line_count(one_node.out), published_ / 2);
}

TEST_F(EventsFromStream, AStreamThatDoesNotExistIsExitOne) {
  EXPECT_EQ(run_tool(from() + " --stream no-such-stream print").status, 1);
}

}  // namespace
}  // namespace integration
