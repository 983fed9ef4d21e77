#pragma once
// One core's memory of the agents it has judged: a request's agent is usually one the core
// has seen (a few browsers, apps and players make most traffic), and a hash and a compare
// cost a tenth of the matcher's 100-250 ns. Direct-mapped, fixed size, owned by one core:
// no lock, no allocation after construction. A slot holds the agent's text, so a verdict is
// never taken from another agent whose hash collided.
#include <array>
#include <cstdint>
#include <string_view>

#include "invalid_traffic/robot_matcher.h"

namespace invalid_traffic {

class RobotVerdicts {
 public:
  // Agents longer than this are judged every time (rare; real agents are 20 to 300 bytes).
  static constexpr size_t kMaxAgentBytes = 512;
  static constexpr size_t kSlots = 1024;
  static_assert(kMaxAgentBytes <= UINT16_MAX, "a slot's length is 16 bits");

  explicit RobotVerdicts(const RobotMatcher& matcher) : matcher_(matcher) {}

  bool is_robot(std::string_view agent);

  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  struct Slot {
    uint16_t length = 0;  // 0: empty (an empty agent is never stored)
    bool robot = false;
    std::array<char, kMaxAgentBytes> text;
  };

  const RobotMatcher& matcher_;
  std::array<Slot, kSlots> slots_{};
  uint64_t hits_ = 0;
  uint64_t misses_ = 0;
};

}  // namespace invalid_traffic
