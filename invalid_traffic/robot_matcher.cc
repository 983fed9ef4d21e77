#include "invalid_traffic/robot_matcher.h"

#include <re2/re2.h>
#include <re2/set.h>

#include <iterator>

#include "runtime/check.h"

namespace invalid_traffic {
namespace {

// Written at build time by generate/robot_patterns_gen.
constexpr const char* kRobotPatterns[] = {
#include "invalid_traffic/robot_patterns.inc"
};

// The set's DFA grows with the states an agent visits; 1,500 alternatives need more room
// than RE2's 8 MiB default before it would give up on a match.
constexpr int64_t kSetMemoryBytes = int64_t{64} << 20;

re2::RE2::Options set_options() {
  re2::RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(kSetMemoryBytes);
  return options;
}

}  // namespace

struct RobotMatcher::Compiled {
  Compiled() : set(set_options(), re2::RE2::UNANCHORED) {}
  re2::RE2::Set set;
};

RobotMatcher::RobotMatcher() : compiled_(std::make_unique<Compiled>()) {
  for (const char* pattern : kRobotPatterns) {
    if (compiled_->set.Add(pattern, nullptr) < 0) {
      ++refused_;
    } else {
      ++pattern_count_;
    }
  }
  // A set that did not compile matches nothing: every robot would pass as a person.
  DECISIOND_CHECK_MSG(pattern_count_ > 0, "no robot pattern was accepted");
  DECISIOND_CHECK_MSG(compiled_->set.Compile(), "the robot patterns did not compile into one set");
}

RobotMatcher::~RobotMatcher() = default;

const RobotMatcher& RobotMatcher::instance() {
  static const RobotMatcher* const matcher = new RobotMatcher();
  return *matcher;
}

bool RobotMatcher::is_robot(std::string_view agent) const {
  if (agent.empty()) return false;
  return compiled_->set.Match(re2::StringPiece(agent.data(), agent.size()), nullptr);
}

}  // namespace invalid_traffic
