// The access log (docs/access-log.md) as an operator meets it: --access-log-sample=1 writes
// one line per request, on the core that answered, with the facts of the request and its
// reply, and never a tracking token or any other query string; 0 (the default) writes no
// file at all.
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/json_body.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

// Every line of every core's access files, in file order.
std::vector<std::string> read_access_lines(const std::string& state_dir) {
  std::vector<std::string> lines;
  const std::filesystem::path root = state_dir + "/access";
  if (!std::filesystem::exists(root)) return lines;
  for (const auto& core : std::filesystem::directory_iterator(root)) {
    for (const auto& file : std::filesystem::directory_iterator(core.path())) {
      std::ifstream in(file.path());
      for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
  }
  return lines;
}

TEST(AccessLog, SampleOfOneLogsEveryRequestOnceWithItsFactsAndNoToken) {
  const TempFile catalog("catalog.json", capped_catalog_json());
  StateDir state;
  std::vector<std::string> tokens;
  int decisions = 0, trackings = 0, bad_trackings = 0, not_found = 0;
  {
    ServerProcess server(standard_flags({"--catalog=" + catalog.path(), state.flag(), "--access-log-sample=1"}));
    ASSERT_TRUE(server.serving()) << server.start_error();
    for (int i = 0; i < 4; ++i) {
      const CurlReply reply = decide(server, "access-user-" + std::to_string(i), 1);
      ASSERT_EQ(reply.status, 200) << reply.body;
      ++decisions;
      for (const CreativeTokens& c : tokens_of(reply.body)) {
        tokens.push_back(c.impression);
        EXPECT_EQ(call_tracking(server, c.impression).status, 204);
        ++trackings;
      }
    }
    ASSERT_FALSE(tokens.empty());
    EXPECT_EQ(call_tracking(server, "not-a-token").status, 400);
    ++bad_trackings;
    CurlSession session;
    EXPECT_EQ(session.get_with_headers(server.public_url("/no/such/path?secret=abc"), {"User-Agent: access-test/1.0"}).status,
              404);
    ++not_found;
    server.send_signal(SIGTERM);  // a clean stop writes and syncs what is held
    ASSERT_TRUE(server.wait_for_exit());
  }

  const std::vector<std::string> lines = read_access_lines(state.path());
  std::map<std::string, int> by_route;
  for (const std::string& line : lines) {
    for (const std::string& token : tokens) EXPECT_EQ(line.find(token), std::string::npos) << line;
    EXPECT_EQ(line.find('?'), std::string::npos) << line;
    EXPECT_EQ(line.find("secret"), std::string::npos) << line;
    JsonBody json(line);
    ASSERT_TRUE(json.ok()) << line;
    const auto root = json.root();
    EXPECT_GT(int_member(root, "time_ms").value_or(0), 1'700'000'000'000) << line;
    EXPECT_TRUE(int_member(root, "core")) << line;
    EXPECT_GE(int_member(root, "request_bytes").value_or(0), 1) << line;
    EXPECT_GE(int_member(root, "reply_bytes").value_or(0), 1) << line;
    EXPECT_GE(int_member(root, "duration_us").value_or(-1), 0) << line;
    const std::string listener = string_member(root, "listener").value_or("");
    const std::string route = string_member(root, "route").value_or("");
    const std::string path = string_member(root, "path").value_or("");
    const int64_t status = int_member(root, "status").value_or(0);
    if (listener != "public") continue;  // the harness's own health checks, if any
    ++by_route[route];
    if (route == "decision") {
      EXPECT_EQ(string_member(root, "method"), "POST");
      EXPECT_EQ(path, "/v1/decision");
      EXPECT_EQ(status, 200);
      EXPECT_FALSE(has_member(root, "code")) << line;
    } else if (route == "tracking") {
      EXPECT_EQ(string_member(root, "method"), "GET");
      EXPECT_EQ(path, "/v1/tracking");
      if (status == 400) EXPECT_EQ(int_member(root, "code"), 10050) << line;
      else EXPECT_EQ(status, 204) << line;
    } else if (route == "unmatched") {
      EXPECT_EQ(path, "/no/such/path");
      EXPECT_EQ(status, 404);
      EXPECT_EQ(int_member(root, "code"), 10004);
      EXPECT_EQ(string_member(root, "user_agent"), "access-test/1.0");
    }
  }
  EXPECT_EQ(by_route["decision"], decisions);
  EXPECT_EQ(by_route["tracking"], trackings + bad_trackings);
  EXPECT_EQ(by_route["unmatched"], not_found);
}

TEST(AccessLog, SampleOfZeroCreatesNoFile) {
  StateDir state;
  {
    ServerProcess server(standard_flags({state.flag()}));
    ASSERT_TRUE(server.serving()) << server.start_error();
    CurlSession session;
    EXPECT_EQ(session.get(server.admin_url("/healthz")).status, 200);
    EXPECT_EQ(call_tracking(server, "not-a-token").status, 400);
    server.send_signal(SIGTERM);
    ASSERT_TRUE(server.wait_for_exit());
  }
  EXPECT_FALSE(std::filesystem::exists(state.path() + "/access"));
}

TEST(AccessLog, SampleOutsideZeroToOneStopsTheStart) {
  const FinishedRun run = run_to_exit(standard_flags({"--access-log-sample=1.5"}));
  ASSERT_TRUE(run.exit);
  EXPECT_EQ(run.exit->code, 2);
  EXPECT_NE(run.stderr_text.find("--access-log-sample"), std::string::npos) << run.stderr_text;
}

}  // namespace
}  // namespace integration
