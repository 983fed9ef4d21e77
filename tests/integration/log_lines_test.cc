// The server's log on stderr (docs/operations.md "Logs"): one logfmt line per event, at the
// levels --log-level lets through, a message's newlines and quotes escaped inside its line.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/integration/server_process.h"

namespace integration {
namespace {

// ts, level, component, the core on a reactor's lines, numeric fields, then msg: bare, or
// quoted with every quote and backslash in it escaped.
const std::regex kLogLine(
    R"(ts=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z level=(error|warn|info|debug) component=[a-z_]+( core=\d+)?)"
    R"(( [a-z_]+=\d+)* msg=("([^"\\]|\\.)*"|[^ "=\\]+))");

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(text.substr(start, end - start));
  }
  return lines;
}

std::string bad_catalog_file() {
  const std::string path = ::testing::TempDir() + "log_lines_bad_catalog.json";
  std::ofstream(path) << R"({
    "revision": "bad", "defaultLanguage": "en",
    "priorities": [{"key": "standard", "weight": 50}],
    "advertisers": [{"id": 1, "name": "A"}], "templates": [{"id": 1, "key": "t"}],
    "placements": [{"id": 1, "key": "p"}],
    "ads": [{"id": 1, "advertiserId": 99, "placementIds": [1], "templateId": 1,
             "priority": "standard", "weight": 0, "start": "2026-01-01T00:00:00Z",
             "creatives": [{"id": 1, "contents": {"en": [{"key": "title", "value": "x"}]}}]}]})";
  return path;
}

TEST(LogLines, AtDebugEveryLineFromStartToStopIsOneLogfmtLine) {
  ServerProcess server(standard_flags({"--log-level=debug"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  server.send_signal(SIGTERM);
  const std::optional<ExitStatus> exit = server.wait_for_exit();
  ASSERT_TRUE(exit);
  EXPECT_EQ(exit->code, 0) << exit->describe();
  const std::string text = server.stderr_text();
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_FALSE(lines.empty());
  EXPECT_TRUE(text.ends_with("\n")) << text;
  for (const std::string& line : lines) EXPECT_TRUE(std::regex_match(line, kLogLine)) << line;
  EXPECT_NE(text.find(" level=debug component=main msg=\"log lines: level debug;"), std::string::npos) << text;
  EXPECT_NE(text.find(" level=info component=main msg=\"serving public="), std::string::npos) << text;
  EXPECT_NE(text.find(" level=info component=main msg=stopped\n"), std::string::npos) << text;
}

TEST(LogLines, AtWarnInfoLinesAreLeftOutAndWarningsAndErrorsStay) {
  const std::string catalog = bad_catalog_file();
  const FinishedRun run =
      run_to_exit(standard_flags({"--log-level=warn", "--benchmark-events-to-nowhere", "--catalog=" + catalog}));
  ASSERT_TRUE(run.exit) << run.stderr_text;
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  const std::vector<std::string> lines = lines_of(run.stderr_text);
  ASSERT_GE(lines.size(), 2u) << run.stderr_text;
  // Between them, the warning of an open files limit below what the cores may hold, on a
  // machine whose limit is low.
  EXPECT_NE(lines.front().find(" level=warn component=main msg=\"--benchmark-events-to-nowhere: "), std::string::npos)
      << lines.front();
  EXPECT_NE(lines.back().find(" level=error component=catalog msg=\"catalog "), std::string::npos) << lines.back();
  for (const std::string& line : lines) {
    EXPECT_TRUE(line.find(" level=warn ") != std::string::npos || line.find(" level=error ") != std::string::npos)
        << line;
  }
}

TEST(LogLines, AtErrorOnlyTheRefusalIsWritten) {
  const std::string catalog = bad_catalog_file();
  const FinishedRun run =
      run_to_exit(standard_flags({"--log-level=error", "--benchmark-events-to-nowhere", "--catalog=" + catalog}));
  ASSERT_TRUE(run.exit) << run.stderr_text;
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  const std::vector<std::string> lines = lines_of(run.stderr_text);
  ASSERT_EQ(lines.size(), 1u) << run.stderr_text;
  EXPECT_TRUE(std::regex_match(lines[0], kLogLine)) << lines[0];
}

// A refused catalog is one event: one line, its errors inside msg after escaped newlines,
// as they were listed before they became one line.
TEST(LogLines, ARefusedCatalogIsOneLineListingEveryErrorWithEscapedNewlines) {
  const std::string catalog = bad_catalog_file();
  const FinishedRun run = run_to_exit(standard_flags({"--log-level=error", "--catalog=" + catalog}));
  ASSERT_TRUE(run.exit) << run.stderr_text;
  const std::vector<std::string> lines = lines_of(run.stderr_text);
  ASSERT_EQ(lines.size(), 1u) << run.stderr_text;
  EXPECT_NE(lines[0].find("msg=\"catalog " + catalog + " refused with 2 error(s):\\n  ads[0]."), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("\\n  ads[0].weight: "), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("\\n  ads[0].advertiserId: "), std::string::npos) << lines[0];
}

}  // namespace
}  // namespace integration
