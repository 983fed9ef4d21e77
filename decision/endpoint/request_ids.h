#pragma once
// Request ids carried in tracking tokens: unique across cores and restarts without any
// coordination, so an impression's "once per token" and the event log can tell decisions
// apart. Not secret (tokens are encrypted) and not random: a counter is cheaper than a
// random draw and cannot collide.
//
//   bytes 0..7   the process's start time, wall nanoseconds (big-endian)
//   bytes 8..9   the core index
//   bytes 10..15 the core's request sequence (48 bits: 2.8e14 decisions per core and start)
#include <cstdint>

#include "tracking/tokens/tracking_event.h"

namespace decision::endpoint {

class RequestIds {
 public:
  RequestIds(int64_t process_start_wall_ns, uint32_t core_index);
  tracking::RequestId next();

 private:
  tracking::RequestId prefix_{};
  uint64_t sequence_ = 0;
};

}  // namespace decision::endpoint
