#pragma once
// An impression handed to the core that counts it (tracking/impressions/): the Work of one
// kind of cross-core ask (runtime/cross_core_asks.h), run by embedded mode's sink
// (owner_core_impressions.h). The call's 204 is held on the receiving core until the answer
// comes back, which the owner core sends once the line it wrote is in the kernel
// (docs/events.md "Durability").
#include <cstdint>

#include "tracking/impressions/impression_notice.h"

namespace tracking::impression_sink {

class OwnerCoreImpressions;
class HeldReply;

struct ImpressionAsk : impressions::ImpressionNotice {
  using Service = OwnerCoreImpressions;
  // Impressions one core may have waiting on one other core (docs/caps.md); its share of
  // the message queue is checked where the kinds are listed (service/cross_core_kinds.h).
  static constexpr uint32_t kPerPeer = 248;

  HeldReply* held = nullptr;  // the reply waiting at home; only the home core touches it
};

}  // namespace tracking::impression_sink
