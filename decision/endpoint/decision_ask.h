#pragma once
// A decision asked of the core that owns its user: the Work of one kind of cross-core ask
// (runtime/cross_core_asks.h, forwarded_request.h).
#include <cstdint>

#include "decision/endpoint/forwarded_request.h"

namespace decision::endpoint {

class DecisionHandler;

struct DecisionAsk : ForwardedRequest {
  using Service = DecisionHandler;
  // Decisions one core may have waiting on one other core (docs/caps.md). With the other
  // kinds' bounds it fills the message queue between two cores exactly: its budget is
  // checked where the kinds are listed (service/cross_core_kinds.h).
  static constexpr uint32_t kPerPeer = 248;
};

}  // namespace decision::endpoint
