#pragma once
// A decision handed to the core that owns its user: the Work of one kind of cross-core ask
// (runtime/cross_core_asks.h), run by embedded mode's route (user_state/owner_core_route.h).
#include <cstdint>

#include "decision/user_state/forwarded_request.h"

namespace decision::user_state {
template <typename Ask>
class OwnerCoreRoute;
}  // namespace decision::user_state

namespace decision::endpoint {

struct DecisionAsk : user_state::ForwardedRequest {
  using Service = user_state::OwnerCoreRoute<DecisionAsk>;
  // Decisions one core may have waiting on one other core (docs/caps.md). With the other
  // kinds' bounds it fills the message queue between two cores exactly: its budget is
  // checked where the kinds are listed (service/cross_core_kinds.h).
  static constexpr uint32_t kPerPeer = 248;
};

}  // namespace decision::endpoint
