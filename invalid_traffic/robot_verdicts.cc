#include "invalid_traffic/robot_verdicts.h"

#include <xxhash.h>

#include <cstring>

#include "runtime/check.h"

namespace invalid_traffic {

bool RobotVerdicts::is_robot(std::string_view agent) {
  if (agent.empty()) return false;
  if (agent.size() > kMaxAgentBytes) return matcher_.is_robot(agent);
  Slot& slot = slots_[XXH3_64bits(agent.data(), agent.size()) % kSlots];
  DECISIOND_CHECK(slot.length <= kMaxAgentBytes);
  if (slot.length == agent.size() && std::memcmp(slot.text.data(), agent.data(), agent.size()) == 0) {
    ++hits_;
    return slot.robot;
  }
  ++misses_;
  DECISIOND_CHECK(agent.size() <= slot.text.size());  // longer agents returned above
  slot.robot = matcher_.is_robot(agent);
  slot.length = static_cast<uint16_t>(agent.size());
  std::memcpy(slot.text.data(), agent.data(), agent.size());
  return slot.robot;
}

}  // namespace invalid_traffic
