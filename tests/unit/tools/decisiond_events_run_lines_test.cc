// decisiond-events --from: a stream message's data is a run of log lines joined by line
// feeds (docs/events.md "Shipping to NATS JetStream"), read line by line as a log file is.
#include <string_view>
#include <vector>

#include "gtest/gtest.h"
#include "tools/decisiond-events/run_lines.h"

namespace {

using decisiond_events::run_lines;
using Lines = std::vector<std::string_view>;

TEST(RunLines, AMessageOfBeforeRunsIsItsOneLine) {
  EXPECT_EQ(run_lines(R"({"seq":7,"time_ms":1})"), Lines{R"({"seq":7,"time_ms":1})"});
}

TEST(RunLines, ARunIsItsLinesInOrderWithoutTheirLineFeeds) {
  EXPECT_EQ(run_lines("{\"seq\":3}\n{\"seq\":4}\n{\"seq\":5}"), (Lines{"{\"seq\":3}", "{\"seq\":4}", "{\"seq\":5}"}));
}

TEST(RunLines, ALineFeedAfterTheLastLineIsTolerated) {
  EXPECT_EQ(run_lines("{\"seq\":3}\n{\"seq\":4}\n"), (Lines{"{\"seq\":3}", "{\"seq\":4}"}));
}

TEST(RunLines, EmptyLinesAreKeptForTheParserToCountAsUnreadable) {
  EXPECT_EQ(run_lines("{\"seq\":3}\n\n{\"seq\":5}"), (Lines{"{\"seq\":3}", "", "{\"seq\":5}"}));
  EXPECT_EQ(run_lines("{\"seq\":3}\n\n"), (Lines{"{\"seq\":3}", ""}));
  EXPECT_EQ(run_lines(""), Lines{""});
}

TEST(RunLines, TheLinesAreViewsIntoTheMessage) {
  const std::string_view data = "a\nbc";
  const Lines lines = run_lines(data);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0].data(), data.data());
  EXPECT_EQ(lines[1].data(), data.data() + 2);
}

}  // namespace
