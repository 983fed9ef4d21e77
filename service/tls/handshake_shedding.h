#pragma once
// When a core sheds TLS handshakes (docs/tls.md "What is refused"): a full handshake costs
// about twenty decisions, so a flood of them must be refused before it makes every
// established connection's requests wait past --shed-lag. But a burst is not a flood: a
// balancer or a load tool opening 64 connections at once queues 64 handshakes, about 20 ms
// of one core's work, and those should all be served. So, as CoDel drops packets, a
// ClientHello is shed only when it waited past the target (a quarter of --shed-lag) and
// the ClientHellos have kept waiting past it for a whole interval (100 ms), counted from
// when the first of them passed the target: a burst drains within the interval, a flood
// does not, and one ClientHello that alone waited longer than the interval (a core stopped
// or starved) shows it. One ClientHello under the target ends it.
//
// Per core, single-threaded; times in monotonic ns.
#include <cstdint>

namespace service {

class HandshakeShedding {
 public:
  static constexpr int64_t kTargetDivisor = 4;                 // target: --shed-lag / this
  static constexpr int64_t kIntervalNs = 100'000'000;          // waiting past it this long

  // shed_lag_ns: --shed-lag; 0 never sheds.
  explicit HandshakeShedding(int64_t shed_lag_ns) : target_ns_(shed_lag_ns / kTargetDivisor) {}

  // A ClientHello that began waiting at waiting_since_ns is handled at now_ns: whether to
  // close it unanswered.
  bool shed(int64_t now_ns, int64_t waiting_since_ns);

 private:
  const int64_t target_ns_;
  int64_t above_since_ns_ = 0;  // since when ClientHellos have waited past the target; 0: they do not
};

}  // namespace service
