#include "service/tls/handshake_shedding.h"

namespace service {

bool HandshakeShedding::shed(int64_t now_ns, int64_t waiting_since_ns, uint64_t handshake_ns_total) {
  if (target_ns_ <= 0) return false;
  if (!window_started_ || now_ns - window_start_ns_ >= kWindowNs) {
    window_started_ = true;
    window_start_ns_ = now_ns;
    work_at_window_start_ns_ = handshake_ns_total;
  }
  if (now_ns - waiting_since_ns <= target_ns_) return false;
  return handshake_ns_total - work_at_window_start_ns_ >= static_cast<uint64_t>(kBudgetNs);
}

}  // namespace service
