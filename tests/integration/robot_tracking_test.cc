// A declared robot's tracking call (docs/invalid-traffic.md): answered as any other, logged
// with "invalid": "robot", and counted toward nothing, neither caps nor the impression's
// one count, at the time or after a restart. The agent judged is X-Device-User-Agent when
// given (server-side ad insertion forwards the viewer's there), else User-Agent.
#include <signal.h>

#include <chrono>
#include <memory>
#include <thread>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

const std::string kRobot = "User-Agent: Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)";
const std::string kPlayer = "User-Agent: ExoPlayerLib/2.19.1";

class RobotTracking : public ::testing::Test {
 protected:
  void start(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=100ms"};
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  // The impression token of ad_2 (capped at one a day) in a decision for user.
  std::string impression_of_ad_2(std::string_view user) {
    const CurlReply reply = decide(*server_, user, 3);
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id == "ad_2") return c.impression;
    }
    ADD_FAILURE() << "ad_2 not served: " << reply.body;
    return "";
  }
  bool ad_2_served_to(std::string_view user) {
    for (int i = 0; i < 5; ++i) {
      for (const CreativeTokens& c : tokens_of(decide(*server_, user, 3).body)) {
        if (c.ad_id == "ad_2") return true;
      }
    }
    return false;
  }
  std::vector<LogLine> impressions_logged() {
    std::vector<LogLine> out;
    for (const LogLine& l : read_event_log(state_.path())) {
      if (l.kind == "impression") out.push_back(l);
    }
    return out;
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDir state_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(RobotTracking, ARobotsImpressionIsAnsweredLoggedInvalidAndCountsTowardNothing) {
  start();
  const std::string token = impression_of_ad_2("robot-tracked-user");
  ASSERT_FALSE(token.empty());
  EXPECT_EQ(call_tracking(*server_, token, "", {kRobot}).status, 204);
  ASSERT_TRUE(wait_until_logged(*server_));
  std::vector<LogLine> lines = impressions_logged();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].invalid, "robot");
  EXPECT_FALSE(lines[0].duplicate);
  EXPECT_EQ(lines[0].ad, 2u);
  // ad_2 allows one a day: the robot's impression used none of it.
  EXPECT_TRUE(ad_2_served_to("robot-tracked-user"));

  // The same URL called by the viewer's player counts, once: the robot's call was not it.
  EXPECT_EQ(call_tracking(*server_, token, "", {kPlayer}).status, 204);
  ASSERT_TRUE(wait_until_logged(*server_));
  lines = impressions_logged();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1].invalid, "");
  EXPECT_FALSE(lines[1].duplicate);
  EXPECT_FALSE(ad_2_served_to("robot-tracked-user"));

  const std::string page = scrape_metrics(*server_);
  EXPECT_EQ(sum_samples(page, "decisiond_tracking_robots_total", {}), 1.0) << page;
  EXPECT_EQ(sum_samples(page, "decisiond_tracking_calls_total", {{"kind", "impression"}}), 1.0) << page;
}

// The other invalid traffic of a tracking call: an impression called sooner after its
// decision than a render could take (--min-impression-delay, docs/invalid-traffic.md).
TEST_F(RobotTracking, AnImpressionSoonerThanTheMinimumDelayIsInvalidTooFastAndCountsOnlyWhenCalledLater) {
  start({"--min-impression-delay=3s"});
  const std::string token = impression_of_ad_2("too-fast-user");
  ASSERT_FALSE(token.empty());
  const auto decided = std::chrono::steady_clock::now();
  EXPECT_EQ(call_tracking(*server_, token, "", {kPlayer}).status, 204);
  ASSERT_TRUE(wait_until_logged(*server_));
  std::vector<LogLine> lines = impressions_logged();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].invalid, "too_fast");
  EXPECT_TRUE(ad_2_served_to("too-fast-user"));  // its cap of one a day is untouched

  // Called again once the delay has surely passed: counted, once.
  std::this_thread::sleep_until(decided + std::chrono::milliseconds(3100));
  EXPECT_EQ(call_tracking(*server_, token, "", {kPlayer}).status, 204);
  ASSERT_TRUE(wait_until_logged(*server_));
  // (Each core writes its own log: the lines are not in call order.)
  std::multiset<std::string> kinds;
  for (const LogLine& l : impressions_logged()) kinds.insert(l.invalid + (l.duplicate ? "/duplicate" : ""));
  EXPECT_EQ(kinds, (std::multiset<std::string>{"too_fast", ""}));
  EXPECT_FALSE(ad_2_served_to("too-fast-user"));
  const std::string page = scrape_metrics(*server_);
  EXPECT_EQ(sum_samples(page, "decisiond_tracking_too_fast_total", {}), 1.0) << page;
}

TEST_F(RobotTracking, XDeviceUserAgentIsJudgedBeforeUserAgent) {
  start();
  // Server-side insertion for a robot viewer: its own client's agent does not save it.
  const std::string robot_viewer = impression_of_ad_2("ssai-robot-viewer");
  EXPECT_EQ(call_tracking(*server_, robot_viewer, "",
                          {"X-Device-User-Agent: facebookexternalhit/1.1", "User-Agent: Go-http-client/1.1"})
                .status,
            204);
  // Server-side insertion for a real viewer, through a client the list names as a robot.
  const std::string real_viewer = impression_of_ad_2("ssai-real-viewer");
  EXPECT_EQ(call_tracking(*server_, real_viewer, "", {"X-Device-User-Agent: Roku/DVP-12.5 (12.5.0.4178-51)", kRobot})
                .status,
            204);
  ASSERT_TRUE(wait_until_logged(*server_));
  std::set<std::string> invalid;
  for (const LogLine& l : impressions_logged()) invalid.insert(l.user + ":" + l.invalid);
  EXPECT_EQ(invalid, (std::set<std::string>{"ssai-robot-viewer:robot", "ssai-real-viewer:"}));
}

TEST_F(RobotTracking, ARobotsImpressionIsNotReplayedIntoCapsAfterARestart) {
  start();
  const std::string token = impression_of_ad_2("robot-restart-user");
  ASSERT_FALSE(token.empty());
  EXPECT_EQ(call_tracking(*server_, token, "", {kRobot}).status, 204);
  ASSERT_TRUE(wait_until_logged(*server_));
  // Killed, so no snapshot is written at exit: the start rebuilds caps from the log,
  // robot's line included.
  server_->send_signal(SIGKILL);
  ASSERT_TRUE(server_->wait_for_exit());
  server_.reset();
  start();
  EXPECT_TRUE(ad_2_served_to("robot-restart-user"));
  // And the viewer's own call still counts, once.
  EXPECT_EQ(call_tracking(*server_, token, "", {kPlayer}).status, 204);
  ASSERT_TRUE(wait_until_logged(*server_));
  EXPECT_FALSE(ad_2_served_to("robot-restart-user"));
}

}  // namespace
}  // namespace integration
