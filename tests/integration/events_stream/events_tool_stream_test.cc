// decisiond-events --from nats://...: the stream cluster nodes ship their logs to reads as
// the union of their state directories does (docs/events.md "Shipping"), line for line.
// The lines are published here as the shipper publishes them (subject per node; runs of
// consecutive lines joined by line feeds, message id <node>:<core>:<first seq>-<last seq>;
// and one line per message with id <node>:<core>:<seq>, as shipped before runs), so the tool
// is tested without a node.
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

// What it says on stderr, its output thrown away.
std::string tool_stderr(const std::string& arguments) {
  return test_support::run_command(std::string(DECISIOND_EVENTS_BINARY) + " " + arguments + " 2>&1 >/dev/null").out;
}

constexpr uint64_t kLinesPerCore = 30;
constexpr size_t kLines = 2 * 2 * kLinesPerCore;  // two nodes of two cores

size_t line_count(const std::string& text) { return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')); }

// Two nodes' logs, two cores each, written as the nodes write them, and published to the
// stream as the shipper does: node-0's core 0 one line per message as before runs, every
// other core in runs of 1 to 5 lines.
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
    std::vector<std::string> lines;
    for (uint64_t seq = 0; seq < kLinesPerCore; ++seq) {
      lines.push_back(event_line(node, core, seq));
      file << lines.back() << '\n';
    }
    const std::string node_id = "node-" + std::to_string(node);
    if (node == 0 && core == 0) {
      for (uint64_t seq = 0; seq < lines.size(); ++seq) publish(node_id, lines[seq], one_line_id(node_id, core, seq));
      return;
    }
    for (uint64_t first = 0, length = 1; first < lines.size(); first += length, length = length % 5 + 1) {
      const uint64_t last = std::min<uint64_t>(first + length, lines.size()) - 1;
      std::string run = lines[first];
      for (uint64_t seq = first + 1; seq <= last; ++seq) run += "\n" + lines[seq];
      publish(node_id, run, run_id(node_id, core, first, last));
    }
  }

  // The line seq of a node's core, without its line feed.
  static std::string event_line(int node, uint32_t core, uint64_t seq) {
    const char* kinds[] = {"decision", "impression", "click"};
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
    line.pop_back();
    return line;
  }

  static std::string one_line_id(const std::string& node_id, uint32_t core, uint64_t seq) {
    return node_id + ":" + std::to_string(core) + ":" + std::to_string(seq);
  }
  static std::string run_id(const std::string& node_id, uint32_t core, uint64_t first, uint64_t last) {
    return one_line_id(node_id, core, first) + "-" + std::to_string(last);
  }

  void publish(const std::string& node_id, const std::string& data, const std::string& msg_id) {
    const PublishAck ack = inspector_.publish("decisiond.events." + node_id, data, msg_id);
    ASSERT_TRUE(ack.ok) << ack.error;
    ++messages_published_;
  }

  std::string state_dirs() const { return "--state-dir " + dirs_[0] + " --state-dir " + dirs_[1]; }
  std::string from() const { return "--from " + nats_.client_url(); }

  NatsCluster nats_;
  NatsInspector inspector_{nats_.server_urls()};
  std::vector<std::string> dirs_;
  size_t messages_published_ = 0;
};

TEST_F(EventsFromStream, PrintOfTheStreamIsPrintOfEveryNodesLogLineForLine) {
  const ToolRun files = run_tool(state_dirs() + " print");
  const ToolRun stream = run_tool(from() + " print");
  ASSERT_EQ(files.status, 0);
  ASSERT_EQ(stream.status, 0);
  EXPECT_EQ(line_count(stream.out), kLines);
  EXPECT_LT(messages_published_, kLines) << "runs of several lines were published";
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
  EXPECT_EQ(line_count(one_node.out), kLines / 2);
}

TEST_F(EventsFromStream, ALineOfARunThatIsNotAnEventIsSkippedAndCountedAndTheRestOfTheRunPrints) {
  const std::string first = event_line(2, 0, 0);
  const std::string last = event_line(2, 0, 2);
  publish("node-2", first + "\n{\"seq\":1,\"time_ms\":17\n" + last, run_id("node-2", 0, 0, 2));
  const ToolRun run = run_tool(from() + " --node node-2 print");
  ASSERT_EQ(run.status, 0);
  EXPECT_EQ(run.out, first + "\n" + last + "\n");
  EXPECT_EQ(tool_stderr(from() + " --node node-2 print"), "decisiond-events: 1 torn or unreadable line(s) skipped\n");
}

TEST_F(EventsFromStream, AStreamThatDoesNotExistIsExitOne) {
  EXPECT_EQ(run_tool(from() + " --stream no-such-stream print").status, 1);
}

}  // namespace
}  // namespace integration
