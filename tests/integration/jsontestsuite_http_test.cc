// JSONTestSuite (test_parsing/) over HTTP: every file is the body of a POST /v1/decision
// on kept-alive connections. Files that are not JSON (n_) are 400 10001; files that are
// JSON or implementation-defined (y_, i_) are 400 10001 or 422; nothing is a 5xx, no
// reply ends the connection, and the server still serves afterwards.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/integration/curl_session.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

#ifndef JSON_TEST_SUITE_DIR
#error "JSON_TEST_SUITE_DIR must name JSONTestSuite's test_parsing folder (set by tests/integration/CMakeLists.txt)"
#endif

namespace integration {
namespace {

struct SuiteFile {
  std::string name;
  std::string bytes;
};

// The suite's files whose names start with `prefix`, by name.
std::vector<SuiteFile> suite_files(const std::string& prefix) {
  std::vector<SuiteFile> files;
  for (const auto& entry : std::filesystem::directory_iterator(JSON_TEST_SUITE_DIR)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    files.push_back({name, bytes.str()});
  }
  std::sort(files.begin(), files.end(), [](const SuiteFile& a, const SuiteFile& b) { return a.name < b.name; });
  return files;
}

// The largest file (n_structure_open_array_object.json) is about 250 KB: the body limit is
// raised so that every file reaches the JSON reader rather than stopping at 413.
std::vector<std::string> suite_server_flags() { return standard_flags({"--max-body-bytes=1048576"}); }

void expect_still_serving(const ServerProcess& server, RawConnection& connection) {
  ASSERT_TRUE(connection.send(post_request("/v1/decision", R"({"placements":[{"key":"home_top"}]})")));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 200) << reply->body;

  CurlSession curl;
  const CurlReply health = curl.get(server.admin_url("/healthz"));
  ASSERT_TRUE(health.ok) << health.error;
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
}

TEST(JsonTestSuiteOverHttp, EveryFileThatIsNotJsonIs400With10001) {
  const std::vector<SuiteFile> files = suite_files("n_");
  ASSERT_GT(files.size(), 150u) << "JSONTestSuite not found in " << JSON_TEST_SUITE_DIR;
  ServerProcess server(suite_server_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.connected());
  for (const SuiteFile& file : files) {
    SCOPED_TRACE(file.name);
    ASSERT_TRUE(connection.send(post_request("/v1/decision", file.bytes)));
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << connection.last_error();
    EXPECT_EQ(reply->status, 400) << reply->body;
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10001));
    ASSERT_FALSE(reply->closes_connection()) << "a body that is not JSON says nothing about the framing";
  }
  expect_still_serving(server, connection);
}

TEST(JsonTestSuiteOverHttp, EveryOtherFileIsAnsweredWithoutAServerError) {
  std::vector<SuiteFile> files = suite_files("y_");
  const std::vector<SuiteFile> implementation_defined = suite_files("i_");
  files.insert(files.end(), implementation_defined.begin(), implementation_defined.end());
  ASSERT_GT(files.size(), 100u) << "JSONTestSuite not found in " << JSON_TEST_SUITE_DIR;
  ServerProcess server(suite_server_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.connected());
  for (const SuiteFile& file : files) {
    SCOPED_TRACE(file.name);
    ASSERT_TRUE(connection.send(post_request("/v1/decision", file.bytes)));
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << connection.last_error();
    // None of them is a decision request: not JSON, not an object, or no placements.
    std::vector<int64_t> codes;
    EXPECT_TRUE(IsAnyErrorEnvelope(reply->body, &codes));
    if (reply->status == 400) {
      EXPECT_EQ(codes, std::vector<int64_t>{10001}) << reply->body;
    } else {
      EXPECT_EQ(reply->status, 422) << reply->body;
      for (int64_t code : codes) EXPECT_TRUE(code >= 10010 && code <= 10021) << reply->body;
    }
    ASSERT_FALSE(reply->closes_connection());
  }
  expect_still_serving(server, connection);
}

}  // namespace
}  // namespace integration
