// The robot matcher against the list it is built from (every example agent the list gives
// for a robot pattern is a robot), and against the agents that must never be taken for one:
// browsers, apps, video players, TVs and the generic HTTP clients of not_robots.txt.
#include "invalid_traffic/robot_matcher.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace invalid_traffic {
namespace {

struct ListEntry {
  std::string pattern;
  std::vector<std::string> instances;
};

std::vector<ListEntry> read_list() {
  std::vector<ListEntry> entries;
  simdjson::padded_string json;
  if (simdjson::padded_string::load(ROBOT_LIST_JSON).get(json) != simdjson::SUCCESS) return entries;
  simdjson::dom::parser parser;
  simdjson::dom::array items;
  if (parser.parse(json).get_array().get(items) != simdjson::SUCCESS) return entries;
  for (simdjson::dom::element item : items) {
    ListEntry entry;
    std::string_view pattern;
    if (item["pattern"].get_string().get(pattern) != simdjson::SUCCESS) continue;
    entry.pattern = std::string(pattern);
    simdjson::dom::array instances;
    if (item["instances"].get_array().get(instances) == simdjson::SUCCESS) {
      for (simdjson::dom::element instance : instances) {
        std::string_view agent;
        if (instance.get_string().get(agent) == simdjson::SUCCESS) entry.instances.emplace_back(agent);
      }
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::set<std::string> not_robots() {
  std::set<std::string> patterns;
  std::ifstream in(NOT_ROBOTS_TXT);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    patterns.insert(line.substr(0, line.find(" | ")));
  }
  return patterns;
}

TEST(RobotMatcher, EveryPatternOfTheListButTheHttpClientsIsCompiled) {
  const std::vector<ListEntry> list = read_list();
  const std::set<std::string> cut = not_robots();
  ASSERT_GT(list.size(), 1000u) << "the list did not read: " << ROBOT_LIST_JSON;
  ASSERT_GE(cut.size(), 15u);
  const RobotMatcher& matcher = RobotMatcher::instance();
  EXPECT_EQ(matcher.refused_patterns(), 0u);
  EXPECT_EQ(matcher.pattern_count(), list.size() - cut.size());
}

TEST(RobotMatcher, EveryExampleAgentOfARobotPatternIsARobot) {
  const std::set<std::string> cut = not_robots();
  const RobotMatcher& matcher = RobotMatcher::instance();
  size_t checked = 0;
  for (const ListEntry& entry : read_list()) {
    if (cut.contains(entry.pattern)) continue;
    for (const std::string& agent : entry.instances) {
      EXPECT_TRUE(matcher.is_robot(agent)) << "pattern " << entry.pattern << ": " << agent;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1500u);
}

// Browsers, in-app web views, native apps, video players and TVs, as their own traffic
// sends them; and the HTTP clients apps, players and servers speak through.
const char* const kNotRobots[] = {
    // Desktop and mobile browsers
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36",
    // In-app web views and native apps
    "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230901.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.230 Mobile Safari/537.36",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/470.0.0.40.95]",
    "NewsApp/5.12.0 (iPhone; iOS 17.5; Scale/3.00)",
    "NewsApp/1042 CFNetwork/1494.0.7 Darwin/23.4.0",
    "Dalvik/2.1.0 (Linux; U; Android 13; Pixel 7 Build/TQ3A.230901.001)",
    // Video players
    "AppleCoreMedia/1.0.0.21F79 (iPhone; U; CPU OS 17_5 like Mac OS X; en_us)",
    "ExoPlayerLib/2.19.1",
    "MyVideoApp/3.2 (Linux;Android 14) ExoPlayerLib/2.19.1",
    "AndroidXMedia3/1.3.1",
    "VLC/3.0.20 LibVLC/3.0.20",
    "GStreamer souphttpsrc 1.22.0 libsoup/3.4.2",
    "Lavf/60.16.100",
    // TVs and streaming devices
    "Roku/DVP-12.5 (12.5.0.4178-51)",
    "Mozilla/5.0 (SMART-TV; LINUX; Tizen 7.0) AppleWebKit/537.36 (KHTML, like Gecko) 94.0.4606.31/7.0 TV Safari/537.36",
    "Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 WebAppManager",
    "Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 CrKey/1.56.500000",
    "Mozilla/5.0 (Linux; Android 9; AFTKA Build/PS7633.3445N; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/130.0.6723.102 Mobile Safari/537.36",
    "AppleTV14,1/17.5 (21L569)",
    "Mozilla/5.0 (PlayStation; PlayStation 5/8.40) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.4 Safari/605.1.15",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox Series X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/48.0.2564.82 Safari/537.36 Edge/20.02",
    // Generic HTTP clients (not_robots.txt)
    "okhttp/4.12.0",
    "curl/8.4.0",
    "Wget/1.21.3",
    "Go-http-client/1.1",
    "Go-http-client/2.0",
    "python-requests/2.31.0",
    "Python-urllib/3.11",
    "aiohttp/3.9.1",
    "python-httpx/0.27.0",
    "Apache-HttpClient/4.5.14 (Java/17.0.10)",
    "Java-http-client/17.0.10",
    "axios/1.6.8",
    "node-fetch/1.0 (+https://github.com/bitinn/node-fetch)",
    "got (https://github.com/sindresorhus/got)",
    "libwww-perl/6.72",
    "HTTPie/3.2.2",
    "AHC/2.1",
    "Jetty/9.4.53",
};

TEST(RobotMatcher, BrowsersAppsPlayersTvsAndHttpClientsAreNotRobots) {
  const RobotMatcher& matcher = RobotMatcher::instance();
  for (const char* agent : kNotRobots) EXPECT_FALSE(matcher.is_robot(agent)) << agent;
}

TEST(RobotMatcher, DeclaredRobotsAreRobots) {
  const RobotMatcher& matcher = RobotMatcher::instance();
  for (const char* agent : {
           "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
           "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
           "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
           "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
           "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.71 Safari/537.36",
           "Scrapy/2.11.0 (+https://scrapy.org)",
           "UptimeRobot/2.0 (https://uptimerobot.com/)",
       }) {
    EXPECT_TRUE(matcher.is_robot(agent)) << agent;
  }
}

TEST(RobotMatcher, AnEmptyAgentDeclaresNothing) {
  EXPECT_FALSE(RobotMatcher::instance().is_robot(""));
}

}  // namespace
}  // namespace invalid_traffic
