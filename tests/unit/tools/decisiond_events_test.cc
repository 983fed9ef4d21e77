// tools/decisiond-events run as a process on a state directory the test writes: every
// core's rotated and live files, merged by time, torn lines skipped, filters, summaries.
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/events/event_line.h"
#include "tracking/events/log_files.h"
#include "tests/support/command_run.h"

namespace {

using tracking::events::EventRecord;

using ToolRun = test_support::CommandRun;

ToolRun run(const std::string& arguments) {
  const std::string command = std::string(DECISIOND_EVENTS_BINARY) + " " + arguments + " 2>/dev/null";
  return test_support::run_command(command);
}

class DecisiondEventsTool : public ::testing::Test {
 protected:
  void SetUp() override {
    // Core 0: two files (a rotation), the second ending in a torn line; core 1: one file.
    write(0, 0, {{0, 1000, "impression", 1, "u1", false}, {1, 3000, "impression", 1, "u1", true}});
    write(0, 2, {{2, 5000, "click", 2, "u2", false}}, R"({"seq":3,"time_ms":6000,"kind":"imp)");
    write(1, 0, {{0, 2000, "decision", 1, "u1", false}, {1, 3600'000 + 4000, "impression", 2, "", false}});
  }

  struct Line {
    uint64_t seq;
    int64_t time_ms;
    const char* kind;
    uint64_t ad;
    const char* user;
    bool duplicate;
  };

  void write(uint32_t core, uint64_t first_seq, std::initializer_list<Line> lines, std::string torn = "") {
    const std::string directory = tracking::events::core_dir(dir_.path(), core);
    std::filesystem::create_directories(directory);
    std::ofstream file(tracking::events::log_file_path(directory, first_seq));
    for (const Line& l : lines) {
      EventRecord r;
      r.time_ms = 1'790'000'000'000 + l.time_ms;
      r.kind = l.kind;
      r.ad = l.ad;
      if (*l.user != '\0') r.user = l.user;
      r.core = core;
      r.tracking = std::string_view(l.kind) != "decision";
      r.duplicate = l.duplicate;
      std::string text;
      tracking::events::append_event_line(r, l.seq, text);
      file << text;
    }
    file << torn;
  }

  tracking::testing::TemporaryDirectory dir_;
};

TEST_F(DecisiondEventsTool, PrintMergesEveryCoresFilesByTimeAndSkipsTornLines) {
  const ToolRun r = run("--state-dir " + dir_.path() + " print");
  ASSERT_EQ(r.status, 0);
  const size_t a = r.out.find("\"time_ms\":1790000001000");
  const size_t b = r.out.find("\"time_ms\":1790000002000");
  const size_t c = r.out.find("\"time_ms\":1790000005000");
  ASSERT_NE(a, std::string::npos) << r.out;
  ASSERT_NE(b, std::string::npos) << r.out;
  ASSERT_NE(c, std::string::npos) << r.out;
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
  EXPECT_EQ(r.out.find("6000"), std::string::npos) << "the torn line is not printed";
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);
}

size_t lines_of(const ToolRun& r) { return static_cast<size_t>(std::count(r.out.begin(), r.out.end(), '\n')); }

TEST_F(DecisiondEventsTool, FiltersByKindAdUserAndTime) {
  const std::string base = "--state-dir " + dir_.path() + " print ";
  EXPECT_EQ(lines_of(run(base + "--kind impression")), 3u);
  EXPECT_EQ(lines_of(run(base + "--ad 2")), 2u);
  EXPECT_EQ(lines_of(run(base + "--user u1")), 3u);
  EXPECT_EQ(lines_of(run(base + "--since 1790000002000 --until 1790000005000")), 2u);
  EXPECT_EQ(lines_of(run(base + "--since 2026-09-21T16:00:00Z")), 0u);
  EXPECT_EQ(lines_of(run(base + "--since 2026-09-21T14:00:00Z")), 5u);
}

TEST_F(DecisiondEventsTool, SummaryCountsByKindAdAndHourAsJson) {
  const ToolRun r = run("--state-dir " + dir_.path() + " summary --json");
  ASSERT_EQ(r.status, 0);
  EXPECT_NE(r.out.find(R"("events":5)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("duplicate_impressions":1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("kinds":{"click":1,"decision":1,"impression":3})"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("ads":{"1":3,"2":2})"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("2026-09-21T14:00Z":4)"), std::string::npos) << r.out;
}

TEST_F(DecisiondEventsTool, SummaryGivesDeliveryByAdAndHourWithoutInvalidTraffic) {
  // A robot's impression of ad 2 in the second hour: in the events, not in the delivery.
  {
    const std::string directory = tracking::events::core_dir(dir_.path(), 2);
    std::filesystem::create_directories(directory);
    std::ofstream file(tracking::events::log_file_path(directory, 0));
    EventRecord r;
    r.time_ms = 1'790'000'000'000 + 3600'000 + 9000;
    r.kind = "impression";
    r.ad = 2;
    r.tracking = true;
    r.invalid = "robot";
    std::string text;
    tracking::events::append_event_line(r, 0, text);
    file << text;
  }
  const ToolRun r = run("--state-dir " + dir_.path() + " summary --json");
  ASSERT_EQ(r.status, 0);
  // Counted: ad 1's first impression (14:00), ad 2's (15:00); not the repeat, not the robot's.
  EXPECT_NE(r.out.find(R"("counted_impressions":2)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("delivered":{"1":{"2026-09-21T14:00Z":1},"2":{"2026-09-21T15:00Z":1}})"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(R"("invalid":{"robot":1})"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("events":6)"), std::string::npos) << r.out;

  const ToolRun text = run("--state-dir " + dir_.path() + " summary");
  EXPECT_NE(text.out.find("invalid traffic (counted nowhere):\n  robot"), std::string::npos) << text.out;
}

TEST_F(DecisiondEventsTool, BadArgumentsExitWithStatus2) {
  EXPECT_EQ(run("print").status, 2);
  EXPECT_EQ(run("--state-dir " + dir_.path()).status, 2);
  EXPECT_EQ(run("--state-dir " + dir_.path() + " print --since yesterday").status, 2);
  EXPECT_EQ(run("--state-dir " + dir_.path() + " print --bogus 1").status, 2);
  // One source: state directories or a stream; --node and --creds belong to a stream.
  EXPECT_EQ(run("--state-dir " + dir_.path() + " --from nats://127.0.0.1:4222 print").status, 2);
  EXPECT_EQ(run("--state-dir " + dir_.path() + " --node n1 print").status, 2);
  EXPECT_EQ(run("--from 127.0.0.1:4222 print").status, 2);
  EXPECT_EQ(run("--from nats://127.0.0.1:0 print").status, 2);
}

TEST_F(DecisiondEventsTool, SeveralStateDirectoriesPrintAsOneLog) {
  // The same directory twice stands for two nodes: every line twice, in time order.
  const ToolRun once = run("--state-dir " + dir_.path() + " print");
  const ToolRun twice = run("--state-dir " + dir_.path() + " --state-dir " + dir_.path() + " print");
  ASSERT_EQ(twice.status, 0);
  EXPECT_EQ(lines_of(twice), 2 * lines_of(once));
  const ToolRun summary = run("--state-dir " + dir_.path() + " --state-dir " + dir_.path() + " summary --json");
  EXPECT_NE(summary.out.find(R"("events":10)"), std::string::npos) << summary.out;
}

TEST_F(DecisiondEventsTool, AStreamNoServerAnswersIsExitOne) {
  // Port 1: nothing listens there, so connecting is refused until the tool gives up waiting.
  EXPECT_EQ(run("--from nats://127.0.0.1:1 print").status, 1);
}

}  // namespace
