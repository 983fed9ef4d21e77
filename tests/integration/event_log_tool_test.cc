// tools/decisiond-events against a log the real server wrote (docs/events.md): print filters
// by kind, ad and user and merges the cores by time, --json prints an array of the stored
// lines, and summary --json counts by kind, ad and hour what the files hold.
#include <signal.h>
#include <sys/wait.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "gtest/gtest.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/json_body.h"
#include "tests/integration/tracking_flow.h"
#include "tests/support/command_run.h"

namespace integration {
namespace {

using ToolRun = test_support::CommandRun;

ToolRun run_tool(const std::string& arguments) {
  return test_support::run_command(std::string(DECISIOND_EVENTS_BINARY) + " " + arguments + " 2>/dev/null");
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::string hour_of(int64_t time_ms) {
  const time_t seconds = static_cast<time_t>(time_ms / 1000);
  struct tm utc;
  ::gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:00Z", &utc);
  return text;
}

// One server run whose log every test reads: two users and anonymous traffic, impressions
// (some repeated), clicks and custom events, on both cores; stopped cleanly.
class EventLogTool : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    catalog_ = new TempFile("catalog.json", capped_catalog_json());
    state_ = new StateDir();
    ServerProcess server(standard_flags({"--catalog=" + catalog_->path(), state_->flag()}));
    ASSERT_TRUE(server.serving()) << server.start_error();
    for (int i = 0; i < 30; ++i) {
      const std::string user = i % 3 == 0 ? "" : (i % 3 == 1 ? "tool-u1" : "tool-u2");
      const CurlReply reply = decide(server, user, 3);
      ASSERT_EQ(reply.status, 200) << reply.body;
      for (const CreativeTokens& c : tokens_of(reply.body)) {
        ASSERT_EQ(call_tracking(server, c.impression).status, 204);
        if (i % 4 == 0) {
          ASSERT_EQ(call_tracking(server, c.impression).status, 204);
        }
        if (i % 5 == 0) {
          ASSERT_LT(call_tracking(server, c.click).status, 400);
        }
        for (const auto& [name, token] : c.custom) ASSERT_EQ(call_tracking(server, token).status, 204);
      }
    }
    server.send_signal(SIGTERM);
    ASSERT_TRUE(server.wait_for_exit());
  }
  static void TearDownTestSuite() {
    delete state_;
    delete catalog_;
  }
  std::string tool(const std::string& arguments) {
    const ToolRun run = run_tool("--state-dir " + state_->path() + " " + arguments);
    EXPECT_EQ(run.status, 0) << arguments;
    return run.out;
  }

  static TempFile* catalog_;
  static StateDir* state_;
};
TempFile* EventLogTool::catalog_ = nullptr;
StateDir* EventLogTool::state_ = nullptr;

TEST_F(EventLogTool, PrintShowsEveryStoredLineMergedByTime) {
  const std::vector<EventLine> files = read_event_lines(state_->path());
  ASSERT_FALSE(files.empty());
  std::multiset<std::string> stored;
  std::set<uint32_t> cores;
  for (const EventLine& l : files) {
    stored.insert(l.text);
    cores.insert(l.file_core);
  }
  EXPECT_EQ(cores.size(), 2u) << "both cores logged";
  const std::vector<std::string> printed = lines_of(tool("print"));
  EXPECT_EQ(std::multiset<std::string>(printed.begin(), printed.end()), stored);
  int64_t last = 0;
  for (const std::string& text : printed) {
    JsonBody json(text);
    ASSERT_TRUE(json.ok()) << text;
    const int64_t t = int_member(json.root(), "time_ms").value_or(-1);
    EXPECT_GE(t, last) << "merged by time: " << text;
    last = t;
  }
}

TEST_F(EventLogTool, PrintFiltersByKindAdAndUser) {
  const std::vector<EventLine> files = read_event_lines(state_->path());
  const auto expected = [&](const std::function<bool(const EventLine&)>& keep) {
    std::multiset<std::string> out;
    for (const EventLine& l : files) {
      if (keep(l)) out.insert(l.text);
    }
    return out;
  };
  const auto printed = [&](const std::string& arguments) {
    const std::vector<std::string> lines = lines_of(tool("print " + arguments));
    return std::multiset<std::string>(lines.begin(), lines.end());
  };
  EXPECT_EQ(printed("--kind click"), expected([](const EventLine& l) { return l.kind == "click"; }));
  EXPECT_EQ(printed("--kind custom"), expected([](const EventLine& l) { return l.kind == "custom"; }));
  EXPECT_EQ(printed("--ad 2"), expected([](const EventLine& l) { return l.ad == 2u; }));
  EXPECT_EQ(printed("--user tool-u1"), expected([](const EventLine& l) { return l.user == "tool-u1"; }));
  EXPECT_EQ(printed("--kind impression --ad 1 --user tool-u2"), expected([](const EventLine& l) {
              return l.kind == "impression" && l.ad == 1u && l.user == "tool-u2";
            }));
  EXPECT_FALSE(printed("--kind click").empty());
  EXPECT_TRUE(printed("--user nobody-at-all").empty());
}

TEST_F(EventLogTool, PrintJsonIsAnArrayOfTheLines) {
  const std::string out = tool("print --kind impression --json");
  JsonBody json(out);
  ASSERT_TRUE(json.ok()) << out.substr(0, 500);
  ASSERT_TRUE(json.root().is_array());
  const size_t expected = count_kind(read_event_lines(state_->path()), "impression");
  EXPECT_EQ(array_items(json.root()).size(), expected);
  for (simdjson::dom::element e : array_items(json.root())) EXPECT_EQ(string_member(e, "kind").value_or(""), "impression");
}

TEST_F(EventLogTool, SummaryCountsByKindAdAndHourWhatTheFilesHold) {
  const std::vector<EventLine> files = read_event_lines(state_->path());
  std::map<std::string, int64_t> kinds, ads, hours;
  int64_t duplicates = 0;
  int64_t counted = 0;
  for (const EventLine& l : files) {
    if (l.kind == "impression" && !l.duplicate.value_or(false)) ++counted;
    ++kinds[l.kind];
    ++ads[std::to_string(l.ad.value_or(0))];
    ++hours[hour_of(l.time_ms.value_or(0))];
    if (l.kind == "impression" && l.duplicate.value_or(false)) ++duplicates;
  }
  const std::string out = tool("summary --json");
  JsonBody json(out);
  ASSERT_TRUE(json.ok()) << out;
  EXPECT_EQ(int_member(json.root(), "events").value_or(-1), static_cast<int64_t>(files.size()));
  EXPECT_EQ(int_member(json.root(), "duplicate_impressions").value_or(-1), duplicates);
  EXPECT_GT(duplicates, 0);
  EXPECT_EQ(int_member(json.root(), "counted_impressions").value_or(-1), counted);
  EXPECT_EQ(int_member(json.root(), "unapplied_impressions").value_or(-1), 0) << "embedded mode marks none";
  const auto as_map = [&](std::string_view key) {
    std::map<std::string, int64_t> out_map;
    const auto object = member(json.root(), key);
    if (!object || !object->is_object()) return out_map;
    for (auto [name, value] : simdjson::dom::object(*object)) out_map[std::string(name)] = int64_t(value.get_int64());
    return out_map;
  };
  EXPECT_EQ(as_map("kinds"), kinds);
  EXPECT_EQ(as_map("ads"), ads);
  EXPECT_EQ(as_map("hours"), hours);
  // The filters apply to summary too.
  JsonBody u1(tool("summary --json --user tool-u1"));
  ASSERT_TRUE(u1.ok());
  int64_t u1_lines = 0;
  for (const EventLine& l : files) u1_lines += l.user == "tool-u1" ? 1 : 0;
  EXPECT_EQ(int_member(u1.root(), "events").value_or(-1), u1_lines);
}

TEST_F(EventLogTool, BadArgumentsExitWith2) {
  EXPECT_EQ(run_tool("--state-dir " + state_->path() + " frobnicate").status, 2);
  EXPECT_EQ(run_tool("--state-dir " + state_->path() + " print --kind").status, 2);
}

}  // namespace
}  // namespace integration
