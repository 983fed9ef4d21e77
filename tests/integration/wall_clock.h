#pragma once
// The wall clock in whole seconds, as the server reads it (CLOCK_REALTIME), for tests of
// lifetimes: a tracking token or a VAST tag expires once the server's clock reaches its
// expiry second (`now >= expiry`, docs/tracking.md), and the server reads its clock when a
// call arrives, so a call sent after sleep_until_wall_s(s) returned is judged at s or later.
#include <cstdint>

namespace integration {

int64_t wall_s();

// Sleeps until wall_s() reaches s: time itself, which no state of the server shows sooner.
void sleep_until_wall_s(int64_t s);

// Sleeps until every token or tag the server sealed before this call, with a lifetime of
// ttl_s, has expired: sealed at wall_s() or before, it expires at wall_s() + ttl_s at the
// latest. At most ttl_s, about ttl_s - 0.5 s on average.
void sleep_until_sealed_ones_expire(int64_t ttl_s);

}  // namespace integration
