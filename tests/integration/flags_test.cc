// Flags (docs/flags.md): a bad value is exit 2 with one line on stderr; values come
// from the environment (DECISIOND_<NAME>), the command line and --flagfile with dashed
// names, and the command line wins over the environment.
//
// Listeners on distinct loopback addresses (127.0.0.2, 127.0.0.3) show which source a
// value came from without racing for a fixed port.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>

#include "tests/integration/curl_session.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

struct BadFlag {
  std::string name;  // test name suffix
  std::vector<std::string> args;
  EnvVars env;
  std::string named_flag;  // the message must name it
};

// Names the case in test output instead of dumping its bytes.
void PrintTo(const BadFlag& bad, std::ostream* out) { *out << bad.name; }

class BadFlagTest : public ::testing::TestWithParam<BadFlag> {};

TEST_P(BadFlagTest, ExitsTwoWithOneStderrLine) {
  const BadFlag& bad = GetParam();
  const FinishedRun run = run_to_exit(standard_flags(bad.args), bad.env);
  ASSERT_TRUE(run.exit) << "it started serving; stderr: " << run.stderr_text;
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe() << "; stderr: " << run.stderr_text;
  EXPECT_NE(run.stderr_text.find(" level=error component=flags msg="), std::string::npos) << run.stderr_text;
  EXPECT_EQ(std::count(run.stderr_text.begin(), run.stderr_text.end(), '\n'), 1) << run.stderr_text;
  EXPECT_TRUE(run.stderr_text.ends_with("\n")) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find(bad.named_flag), std::string::npos) << "should name " << bad.named_flag << ": " << run.stderr_text;
}

INSTANTIATE_TEST_SUITE_P(
    Flags, BadFlagTest,
    ::testing::Values(BadFlag{"CoresNotANumber", {"--cores=abc"}, {}, "--cores"},
                      BadFlag{"ListenNotHostPort", {"--listen=nonsense"}, {}, "--listen"},
                      BadFlag{"TrackingTtlNegative", {"--tracking-ttl=-1s"}, {}, "--tracking-ttl"},
                      BadFlag{"TrackingTtlBelowASecond", {"--tracking-ttl=999ms"}, {}, "--tracking-ttl"},
                      BadFlag{"VastTagTtlNotWholeSeconds", {"--vast-tag-ttl=1500ms"}, {}, "--vast-tag-ttl"},
                      BadFlag{"UnknownFlag", {"--unknown-flag"}, {}, "--unknown-flag"},
                      BadFlag{"CatalogMissing", {"--catalog=/nonexistent"}, {}, "--catalog"},
                      BadFlag{"RequestTimeoutZero", {"--request-timeout=0s"}, {}, "--request-timeout"},
                      BadFlag{"EventsToNowhereNotABool", {"--benchmark-events-to-nowhere=maybe"}, {},
                              "--benchmark-events-to-nowhere"},
                      BadFlag{"ShedLagNegative", {"--shed-lag=-1ms"}, {}, "--shed-lag"},
                      BadFlag{"MinImpressionDelayNegative", {"--min-impression-delay=-1s"}, {},
                              "--min-impression-delay"},
                      BadFlag{"PacingIntervalZero", {"--pacing-interval=0s"}, {}, "--pacing-interval"},
                      BadFlag{"PacingIntervalNotWholeSeconds", {"--pacing-interval=1500ms"}, {}, "--pacing-interval"},
                      BadFlag{"PacingIntervalPastAnHour", {"--pacing-interval=2h"}, {}, "--pacing-interval"},
                      BadFlag{"LogLevelUnknown", {"--log-level=verbose"}, {}, "--log-level"},
                      BadFlag{"LogLevelInCapitals", {}, {{"DECISIOND_LOG_LEVEL", "INFO"}}, "--log-level"},
                      BadFlag{"CoresNotANumberFromEnvironment", {}, {{"DECISIOND_CORES", "abc"}}, "--cores"}),
    [](const ::testing::TestParamInfo<BadFlag>& info) { return info.param.name; });

// A temporary flag file, removed with the test.
class FlagFile {
 public:
  explicit FlagFile(const std::string& text) {
    std::string pattern = (std::filesystem::temp_directory_path() / "decisiond-flags-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd >= 0) ::close(fd);
    path_ = pattern;
    std::ofstream(path_) << text;
  }
  ~FlagFile() { std::filesystem::remove(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void expect_healthz_answers(const ServerProcess& server) {
  CurlSession curl;
  const CurlReply reply = curl.get(server.admin_url("/healthz"));
  ASSERT_TRUE(reply.ok) << server.admin_url("/healthz") << ": " << reply.error;
  EXPECT_EQ(reply.status, 200);
}

TEST(Flags, AdminListenFromEnvironmentTakesEffect) {
  ServerProcess server({"--listen=127.0.0.1:0", "--cores=1"}, {{"DECISIOND_ADMIN_LISTEN", "127.0.0.2:0"}});
  ASSERT_TRUE(server.serving()) << server.start_error();
  EXPECT_EQ(server.admin_host(), "127.0.0.2");
  expect_healthz_answers(server);
}

TEST(Flags, CommandLineWinsOverEnvironment) {
  ServerProcess server({"--listen=127.0.0.1:0", "--cores=1", "--admin-listen=127.0.0.3:0"},
                       {{"DECISIOND_ADMIN_LISTEN", "127.0.0.2:0"}});
  ASSERT_TRUE(server.serving()) << server.start_error();
  EXPECT_EQ(server.admin_host(), "127.0.0.3");
  expect_healthz_answers(server);
}

TEST(Flags, FlagfileWithDashedNamesTakesEffect) {
  const FlagFile file(
      "# comments and blank lines are skipped\n"
      "\n"
      "--admin-listen=127.0.0.3:0\n"
      "--max-body-bytes=8\n");
  ServerProcess server({"--listen=127.0.0.1:0", "--cores=1", "--flagfile=" + file.path()});
  ASSERT_TRUE(server.serving()) << server.start_error();
  EXPECT_EQ(server.admin_host(), "127.0.0.3");
  expect_healthz_answers(server);

  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(post_request("/v1/decision", "12345678")));  // 8 bytes: accepted
  std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 400);  // read by the endpoint: JSON, but not an object
  ASSERT_TRUE(connection.send(post_request("/v1/decision", "123456789")));  // 9 bytes: over
  reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 413);
}

TEST(Flags, HelpExitsZeroWithoutServing) {
  const FinishedRun run = run_to_exit({"--help"});
  ASSERT_TRUE(run.exit) << "it started serving; stderr: " << run.stderr_text;
  EXPECT_EQ(run.exit->code, 0) << run.exit->describe();
  EXPECT_EQ(run.stderr_text.find("msg=\"serving "), std::string::npos);
}

}  // namespace
}  // namespace integration
