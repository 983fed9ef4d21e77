#pragma once
// An explain asked of the core that owns its user, as a decision is
// (decision/endpoint/decision_ask.h): frequency caps are read only by their owner
// (docs/caps.md), so an explain that reads them runs there.
#include <cstdint>

#include "decision/user_state/forwarded_request.h"

namespace decision::user_state {
template <typename Ask>
class OwnerCoreRoute;
}  // namespace decision::user_state

namespace decision::explain {

struct ExplainAsk : user_state::ForwardedRequest {
  using Service = user_state::OwnerCoreRoute<ExplainAsk>;
  // Explains are an operator's tool, not traffic: a handful at once is plenty
  // (docs/explain.md), and each takes its slots of every message queue.
  static constexpr uint32_t kPerPeer = 8;
};

}  // namespace decision::explain
