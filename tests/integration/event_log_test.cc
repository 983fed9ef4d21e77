// The event log as an operator meets it (docs/events.md): read back with
// tools/decisiond-events, and a disk that refuses writes (a full filesystem the test
// mounts) never fails a request, turns /readyz unready, and loses nothing it can keep.
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/json_body.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/readyz.h"
#include "tests/integration/tracking_flow.h"
#include "tests/support/command_run.h"

namespace integration {
namespace {

// What decisiond-events prints on standard output.
std::string tool_output(const std::string& arguments) {
  return test_support::run_command(std::string(DECISIOND_EVENTS_BINARY) + " " + arguments).out;
}

TEST(EventLog, ToolReadsBackWhatTheServerLogged) {
  const TempFile catalog("catalog.json", capped_catalog_json());
  StateDir state;
  int creatives = 0, impressions = 0, clicks = 0;
  {
    ServerProcess server(standard_flags({"--catalog=" + catalog.path(), state.flag(), "--events-file-bytes=64KiB"}));
    ASSERT_TRUE(server.serving()) << server.start_error();
    for (int i = 0; i < 240; ++i) {
      const CurlReply reply = decide(server, "tool-user-" + std::to_string(i % 7), 3);
      for (const CreativeTokens& c : tokens_of(reply.body)) {
        ++creatives;
        if (call_tracking(server, c.impression).status == 204) ++impressions;
        if (i % 3 == 0 && call_tracking(server, c.click).status / 100 <= 3) ++clicks;
      }
    }
    server.send_signal(SIGTERM);
    ASSERT_TRUE(server.wait_for_exit());
  }
  const std::string summary = tool_output("--state-dir " + state.path() + " summary --json");
  JsonBody json(summary);
  ASSERT_TRUE(json.ok()) << summary;
  const auto kinds = member(json.root(), "kinds");
  ASSERT_TRUE(kinds);
  EXPECT_EQ(int_member(*kinds, "decision"), creatives);
  EXPECT_EQ(int_member(*kinds, "impression"), impressions);
  EXPECT_EQ(int_member(*kinds, "click"), clicks);
  // Rotated at 64 KiB: several files, all read.
  size_t files = 0;
  for (const auto& core : std::filesystem::directory_iterator(state.path() + "/events")) {
    files += static_cast<size_t>(std::distance(std::filesystem::directory_iterator(core.path()), {}));
  }
  EXPECT_GT(files, 2u);
  const std::string clicks_only = tool_output("--state-dir " + state.path() + " print --kind click");
  EXPECT_EQ(std::count(clicks_only.begin(), clicks_only.end(), '\n'), clicks);
}

// A small tmpfs mounted over <state-dir>/events for the test's life.
class SmallEventsMount {
 public:
  explicit SmallEventsMount(const std::string& directory) : directory_(directory) {
    std::filesystem::create_directories(directory);
    if (::geteuid() != 0) {
      why_not_ = "not running as root";
      return;
    }
    if (::mount("tmpfs", directory.c_str(), "tmpfs", 0, "size=256k") != 0) {
      why_not_ = std::string("mount(tmpfs) failed: ") + std::strerror(errno);
      return;
    }
    mounted_ = true;
  }
  ~SmallEventsMount() {
    if (mounted_) ::umount2(directory_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }
  const std::string& why_not() const { return why_not_; }
  // Fills what is left with a file of the test's own.
  void fill() {
    std::ofstream filler(directory_ + "/filler", std::ios::binary);
    const std::string block(4096, 'x');
    while (filler.write(block.data(), block.size())) {
    }
  }
  void free_space() { std::filesystem::remove(directory_ + "/filler"); }

 private:
  std::string directory_;
  bool mounted_ = false;
  std::string why_not_;
};

TEST(EventLog, FullDiskNeverFailsARequestTurnsUnreadyAndLosesNothingItHeld) {
  StateDir state;
  SmallEventsMount disk(state.path() + "/events");
  if (!disk.mounted()) GTEST_SKIP() << "needs a size-limited filesystem the test mounts: " << disk.why_not();
  const TempFile catalog("catalog.json", capped_catalog_json());
  ServerProcess server(standard_flags({"--catalog=" + catalog.path(), state.flag(), "--events-flush=100ms"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  disk.fill();
  int creatives = 0, impressions = 0;
  for (int i = 0; i < 200; ++i) {
    const CurlReply reply = decide(server, "disk-user-" + std::to_string(i), 3);
    ASSERT_EQ(reply.status, 200) << "requests are served while the disk refuses";
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      ++creatives;
      ASSERT_EQ(call_tracking(server, c.impression).status, 204);
      ++impressions;
    }
  }
  EXPECT_TRUE(wait_for_readyz(server, 503)) << "/readyz turns unready while writes fail";
  const std::string page = scrape_metrics(server);
  EXPECT_GT(sum_samples(page, "decisiond_events_write_errors_total", {}).value_or(0), 0.0) << page;
  EXPECT_LT(sum_samples(page, "decisiond_events_log_healthy", {}).value_or(2), 2.0) << "a core's log reports unhealthy";

  disk.free_space();
  EXPECT_TRUE(wait_for_readyz(server, 200)) << "ready again once writes succeed";
  server.send_signal(SIGTERM);
  ASSERT_TRUE(server.wait_for_exit());
  int decision_lines = 0, impression_lines = 0;
  for (const LogLine& l : read_event_log(state.path())) {
    decision_lines += l.kind == "decision" ? 1 : 0;
    impression_lines += l.kind == "impression" ? 1 : 0;
  }
  // Held in memory while refused (well under the pending bound), written once it could be.
  EXPECT_EQ(decision_lines, creatives);
  EXPECT_EQ(impression_lines, impressions);
}

}  // namespace
}  // namespace integration
