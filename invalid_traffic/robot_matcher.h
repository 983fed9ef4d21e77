#pragma once
// Who is a declared robot: a user agent that names itself a crawler, spider, monitor or
// preview fetcher, by the crawler-user-agents list (robot_list/, pinned by npm) minus the
// generic HTTP clients of not_robots.txt, which apps, players and server-side callers use
// (docs/invalid-traffic.md). The list's patterns are regular expressions, matched
// case-sensitively anywhere in the agent, as the list's own validators match them; all of
// them are compiled into one RE2 set, built once per process.
//
// Knows user agents, nothing of ads or HTTP.
#include <cstddef>
#include <memory>
#include <string_view>

namespace re2 {
class RE2;
}  // namespace re2

namespace invalid_traffic {

class RobotMatcher {
 public:
  // The process's matcher, built on first use (a few milliseconds): call it once at start.
  static const RobotMatcher& instance();

  // Whether the agent names a robot. An empty agent is not one: it declares nothing.
  // Thread-safe; allocates nothing.
  bool is_robot(std::string_view agent) const;

  size_t pattern_count() const { return pattern_count_; }
  // Patterns RE2 refused (none in the pinned list; the unit tests check it).
  size_t refused_patterns() const { return refused_; }

 private:
  RobotMatcher();
  ~RobotMatcher();

  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
  size_t pattern_count_ = 0;
  size_t refused_ = 0;
};

}  // namespace invalid_traffic
