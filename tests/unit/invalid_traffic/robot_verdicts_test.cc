// A core's remembered verdicts agree with the matcher, whatever the order agents come in.
#include "invalid_traffic/robot_verdicts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace invalid_traffic {
namespace {

TEST(RobotVerdicts, RememberedVerdictsAgreeWithTheMatcher) {
  const RobotMatcher& matcher = RobotMatcher::instance();
  RobotVerdicts verdicts(matcher);
  // More distinct agents than slots, so slots are taken over by other agents many times.
  std::vector<std::string> agents;
  for (size_t i = 0; i < 3 * RobotVerdicts::kSlots; ++i) {
    agents.push_back(i % 3 == 0 ? "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) #" +
                                      std::to_string(i)
                                : "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/131.0 Mobile #" + std::to_string(i));
  }
  for (int pass = 0; pass < 3; ++pass) {
    for (const std::string& agent : agents) {
      ASSERT_EQ(verdicts.is_robot(agent), matcher.is_robot(agent)) << agent;
    }
  }
  EXPECT_GT(verdicts.misses(), 0u);
}

TEST(RobotVerdicts, ARepeatedAgentIsJudgedOnce) {
  RobotVerdicts verdicts(RobotMatcher::instance());
  const std::string robot = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";
  const std::string player = "ExoPlayerLib/2.19.1";
  for (int i = 0; i < 10; ++i) {
    EXPECT_TRUE(verdicts.is_robot(robot));
    EXPECT_FALSE(verdicts.is_robot(player));
  }
  EXPECT_EQ(verdicts.misses(), 2u);
  EXPECT_EQ(verdicts.hits(), 18u);
}

TEST(RobotVerdicts, LongAndEmptyAgentsAreJudgedWithoutBeingKept) {
  RobotVerdicts verdicts(RobotMatcher::instance());
  const std::string long_robot = std::string(RobotVerdicts::kMaxAgentBytes, 'x') + " Googlebot/2.1";
  EXPECT_TRUE(verdicts.is_robot(long_robot));
  EXPECT_TRUE(verdicts.is_robot(long_robot));
  EXPECT_FALSE(verdicts.is_robot(""));
  EXPECT_EQ(verdicts.hits() + verdicts.misses(), 0u);
}

}  // namespace
}  // namespace invalid_traffic
