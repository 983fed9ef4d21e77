#pragma once
// The frequency caps of an ad, as the catalog in force on this core says. Tracking knows
// no catalog: the service layer answers from the core's snapshot.
#include <cstdint>
#include <span>

#include "caps/cap_store.h"

namespace tracking::impressions {

class AdCaps {
 public:
  virtual ~AdCaps() = default;
  // Empty when the ad has no caps or has left the catalog (nothing then to count against).
  virtual std::span<const caps::CapRule> caps_of(uint64_t ad_id) const = 0;
};

}  // namespace tracking::impressions
