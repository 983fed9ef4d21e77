#pragma once
// An impression asked of the core that counts it (tracking/impressions/): the Work of one
// kind of cross-core ask (runtime/cross_core_asks.h). The call is answered 204 at once on
// the receiving core; the answer that comes back only returns the notice to its pool.
#include <cstdint>

#include "tracking/impressions/impression_notice.h"

namespace tracking::endpoint {

class TrackingHandler;

struct ImpressionAsk : impressions::ImpressionNotice {
  using Service = TrackingHandler;
  // Impressions one core may have waiting on one other core (docs/caps.md); its share of
  // the message queue is checked where the kinds are listed (service/cross_core_kinds.h).
  static constexpr uint32_t kPerPeer = 248;
};

}  // namespace tracking::endpoint
