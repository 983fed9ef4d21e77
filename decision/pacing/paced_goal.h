#pragma once
// A delivery goal as the catalog in force states it (docs/pacing.md).
#include <cstdint>

#include "decision/pacing/goal_controller.h"

namespace decision::pacing {

struct PacedGoal {
  uint64_t ad_id = 0;
  GoalFlight flight;
};

}  // namespace decision::pacing
