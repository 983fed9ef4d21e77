#pragma once
// When a core sheds TLS handshakes (docs/tls.md "What is refused"). A full handshake costs
// about twenty decisions, so a flood of them, admitted while the core had the CPU, would
// make every established connection's requests wait past --shed-lag, and shed those too.
// But a burst is not a flood: a balancer or a load tool opening dozens of connections at
// once queues dozens of handshakes (0.3 to 0.8 ms each on the 2-vCPU VMs measured), and
// all of them should be served.
// So handshakes get a budget: a ClientHello is shed when it waited past the target (a
// quarter of --shed-lag) and the core has already spent a quarter of the current 100 ms
// window in handshakes. A burst fits in the budget; a flood is held to a quarter of the
// core, and the established connections keep what accepting and closing it leaves. Half
// the window was tried first: the flood's admitted handshakes and the closing of the rest
// then left 64 established connections 112 decisions a second (1,238 with a quarter).
//
// Per core, single-threaded; times in monotonic ns.
#include <cstdint>

namespace service {

class HandshakeShedding {
 public:
  static constexpr int64_t kTargetDivisor = 4;           // target: --shed-lag / this
  static constexpr int64_t kWindowNs = 100'000'000;      // the budget's window
  static constexpr int64_t kBudgetNs = kWindowNs / 4;    // handshake work a window allows

  // shed_lag_ns: --shed-lag; 0 never sheds.
  explicit HandshakeShedding(int64_t shed_lag_ns) : target_ns_(shed_lag_ns / kTargetDivisor) {}

  // A ClientHello that began waiting at waiting_since_ns is handled at now_ns, the core
  // having spent handshake_ns_total in handshakes since it started: whether to close it
  // unanswered.
  bool shed(int64_t now_ns, int64_t waiting_since_ns, uint64_t handshake_ns_total);

 private:
  const int64_t target_ns_;
  bool window_started_ = false;
  int64_t window_start_ns_ = 0;
  uint64_t work_at_window_start_ns_ = 0;
};

}  // namespace service
