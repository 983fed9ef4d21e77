// A declared robot's decision: 200 with no creatives and warning 20005, whichever way the
// agent came (device.ua first, else User-Agent); the generic HTTP clients apps and players
// speak through are served (docs/invalid-traffic.md).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/curl_session.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

constexpr char kGooglebot[] = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
constexpr char kBrowser[] =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 "
    "Mobile/15E148 Safari/604.1";
constexpr int kDeclaredRobot = 20005;

std::string body_with_device(const std::string& device_json) {
  return R"({"placements":[{"key":"home_top","count":2},{"key":"sidebar","count":1}],"user":{"id":"robot-test-user"})" +
         (device_json.empty() ? std::string() : ",\"device\":" + device_json) + "}";
}

class RobotDecisions : public ::testing::Test {
 protected:
  DecisionReply decide(const std::string& body, const std::string& user_agent) {
    std::vector<std::string> lines = {"Content-Type: application/json", "Accept-Language: en"};
    if (!user_agent.empty()) lines.push_back("User-Agent: " + user_agent);
    const CurlReply reply = curl_.post_with_headers(server_.public_url("/v1/decision"), body, lines);
    EXPECT_EQ(reply.status, 200) << reply.body;
    DecisionReply decision;
    EXPECT_TRUE(ReadDecision(reply.body, decision)) << reply.body;
    return decision;
  }
  static size_t creatives_in(const DecisionReply& decision) {
    size_t n = 0;
    for (const PlacementDecision& placement : decision.data) n += placement.creatives.size();
    return n;
  }
  static const ReplyItem* robot_warning(const DecisionReply& decision) {
    for (const ReplyItem& item : decision.warnings) {
      if (item.code == kDeclaredRobot) return &item;
    }
    return nullptr;
  }

  ServerProcess server_{standard_flags()};
  CurlSession curl_;
};

TEST_F(RobotDecisions, ARobotUserAgentGetsNoCreativesAndWarning20005NamingTheHeader) {
  ASSERT_TRUE(server_.serving()) << server_.start_error();
  const DecisionReply decision = decide(body_with_device(""), kGooglebot);
  ASSERT_EQ(decision.data.size(), 2u);
  EXPECT_EQ(creatives_in(decision), 0u);
  const ReplyItem* warning = robot_warning(decision);
  ASSERT_NE(warning, nullptr);
  EXPECT_EQ(warning->details.at("header"), "User-Agent");
  EXPECT_EQ(wait_for_metric(server_, "decisiond_decision_robots_total", {}, 1), 1);
}

TEST_F(RobotDecisions, DeviceUaDecidesBeforeTheHeaderBothWays) {
  ASSERT_TRUE(server_.serving()) << server_.start_error();
  // A robot in device.ua, sent by a browser: a robot, read from the body.
  const DecisionReply robot = decide(body_with_device(std::string(R"({"ua":")") + kGooglebot + R"("})"), kBrowser);
  EXPECT_EQ(creatives_in(robot), 0u);
  const ReplyItem* warning = robot_warning(robot);
  ASSERT_NE(warning, nullptr);
  EXPECT_EQ(warning->details.at("field"), "device.ua");

  // A viewer's browser in device.ua, forwarded by a server whose own agent is a robot's:
  // the viewer is judged.
  const DecisionReply viewer = decide(body_with_device(std::string(R"({"os":"iOS","ua":")") + kBrowser + R"("})"),
                                      kGooglebot);
  EXPECT_GT(creatives_in(viewer), 0u);
  EXPECT_EQ(robot_warning(viewer), nullptr);
}

TEST_F(RobotDecisions, ADeviceUaThatIsNotAStringIsNotUsed) {
  ASSERT_TRUE(server_.serving()) << server_.start_error();
  const DecisionReply decision = decide(body_with_device(R"({"ua":42})"), kGooglebot);
  EXPECT_EQ(creatives_in(decision), 0u);
  const ReplyItem* warning = robot_warning(decision);
  ASSERT_NE(warning, nullptr);
  EXPECT_EQ(warning->details.at("header"), "User-Agent");
}

TEST_F(RobotDecisions, HttpClientsAndBrowsersAreServed) {
  ASSERT_TRUE(server_.serving()) << server_.start_error();
  for (const char* agent : {"okhttp/4.12.0", "Go-http-client/1.1", "curl/8.4.0", kBrowser, ""}) {
    const DecisionReply decision = decide(body_with_device(""), agent);
    EXPECT_GT(creatives_in(decision), 0u) << agent;
    EXPECT_EQ(robot_warning(decision), nullptr) << agent;
  }
  EXPECT_EQ(wait_for_metric(server_, "decisiond_decision_robots_total", {}, 0), 0);
}

}  // namespace
}  // namespace integration
