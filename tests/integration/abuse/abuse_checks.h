#pragma once
// What every abuse test checks besides the refusal itself: a well-behaved client on
// another connection is served meanwhile, the server's resident memory stays under a bound
// derived from the limits, and a refused connection says so and closes.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "tests/integration/raw_connection.h"
#include "tests/integration/server_process.h"

namespace integration::abuse {

inline constexpr uint64_t kKiB = 1024;
inline constexpr uint64_t kMiB = 1024 * kKiB;
// The server's default header limit, and what one connection holds beyond its request (a
// connection object with its parser's storage).
inline constexpr uint64_t kHeaderLimit = 16 * kKiB;
inline constexpr uint64_t kBytesPerConnection = 16 * kKiB;
// What the allocator may keep besides what a bound names (jemalloc's arenas and dirty
// pages, thread caches): generous, so a bound fails only on memory per connection or per
// byte sent that nobody bounded.
inline constexpr uint64_t kAllocatorSlackBytes = 32 * kMiB;

// The provided receive buffers of one core (docs/operations.md: 1,024 x 8 KiB): resident
// once the first bytes through them touched them, which a baseline taken early may not
// have seen yet.
inline constexpr uint64_t kReceiveBuffersPerCoreBytes = 8 * kMiB;
inline constexpr uint64_t kCores = 2;  // standard_flags()

// A decision for home_top on a new connection (libcurl), answered 200 with a creative. A
// well-behaved client honours a 503 10098 with Retry-After (a core shedding while the
// abuse keeps it busy, --shed-lag): it waits the second and asks again, a few times.
::testing::AssertionResult WellBehavedClientIsServed(const ServerProcess& server);

// The reply at the front of the connection is `status` with the error envelope of `code`
// and Connection: close, and the server then closes without sending anything more (so
// no byte after the refused request was answered).
::testing::AssertionResult IsRefusalThenClose(RawConnection& connection, int status, int code);

// Resident memory of the server this test started (tests/integration/updates/server_memory.h).
class ServerMemory {
 public:
  // A server whose memory cannot be read fails the test: a bound that silently stops
  // being checked is coverage gone without a red line.
  explicit ServerMemory(const ServerProcess& server);
  // False only under ASan (its allocator quarantines freed memory and replaces jemalloc):
  // the test then says so and skips the bound, nothing else.
  bool measurable() const { return pid_.has_value() && baseline_.has_value(); }
  uint64_t baseline() const { return baseline_.value_or(0); }
  std::optional<uint64_t> now() const;
  // Resident memory now is at most baseline + extra_bytes + the receive buffers of every
  // core + kAllocatorSlackBytes.
  ::testing::AssertionResult StaysWithin(uint64_t extra_bytes, const std::string& what) const;

 private:
  std::optional<pid_t> pid_;
  std::optional<uint64_t> baseline_;
};

// 404s answered on the public listener (decisiond_http_requests_total): a smuggled
// request for an unknown path leaves one here if the server ever read it.
double public_404_count(const ServerProcess& server);

}  // namespace integration::abuse
