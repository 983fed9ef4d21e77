#include "service/tls/handshake_shedding.h"

namespace service {

bool HandshakeShedding::shed(int64_t now_ns, int64_t waiting_since_ns) {
  if (target_ns_ <= 0) return false;
  if (now_ns - waiting_since_ns <= target_ns_) {
    above_since_ns_ = 0;
    return false;
  }
  // The wait has been past the target at least since this one had waited that long.
  if (above_since_ns_ == 0) above_since_ns_ = waiting_since_ns + target_ns_;
  return now_ns - above_since_ns_ >= kIntervalNs;
}

}  // namespace service
