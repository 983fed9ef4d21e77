// HandshakeShedding (service/tls/handshake_shedding.h): a ClientHello is shed only when
// ClientHellos have kept waiting past the target (a quarter of --shed-lag) for a whole
// interval; a burst that drains within it is served; one under the target ends it.
#include "service/tls/handshake_shedding.h"

#include "gtest/gtest.h"

namespace service {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kShedLag = 20 * kMs;  // target 5 ms
constexpr int64_t kStart = 1'000'000 * kMs;

TEST(HandshakeShedding, AClientHelloUnderTheTargetIsNeverShed) {
  HandshakeShedding shedding(kShedLag);
  for (int64_t t = 0; t < 1000 * kMs; t += kMs) EXPECT_FALSE(shedding.shed(kStart + t, kStart + t - 4 * kMs));
}

TEST(HandshakeShedding, ABurstThatDrainsWithinTheIntervalIsServedWhole) {
  HandshakeShedding shedding(kShedLag);
  // 64 ClientHellos that arrived together, 0.3 ms of work each: the last waits 19 ms.
  for (int i = 0; i < 64; ++i) EXPECT_FALSE(shedding.shed(kStart + i * 300'000, kStart)) << i;
}

TEST(HandshakeShedding, ClientHellosWaitingPastTheTargetForAnIntervalAreShedUntilOneIsUnder) {
  HandshakeShedding shedding(kShedLag);
  int64_t now = kStart;
  // A flood: every ClientHello waited 8 ms, so the wait has been past the 5 ms target since
  // 3 ms before the first was handled.
  EXPECT_FALSE(shedding.shed(now, now - 8 * kMs));
  now += HandshakeShedding::kIntervalNs - 4 * kMs;
  EXPECT_FALSE(shedding.shed(now, now - 8 * kMs)) << "not yet a whole interval";
  now += kMs;
  EXPECT_TRUE(shedding.shed(now, now - 8 * kMs));
  now += 10 * kMs;
  EXPECT_TRUE(shedding.shed(now, now - 8 * kMs));
  // One under the target: the flood is over, and the next one late starts a new interval.
  EXPECT_FALSE(shedding.shed(now, now - 1 * kMs));
  EXPECT_FALSE(shedding.shed(now + kMs, now - 8 * kMs));
}

TEST(HandshakeShedding, OneClientHelloThatAloneWaitedLongerThanTheIntervalIsShed) {
  HandshakeShedding shedding(kShedLag);
  EXPECT_TRUE(shedding.shed(kStart, kStart - 300 * kMs));  // the core was stopped 300 ms
}

TEST(HandshakeShedding, ZeroNeverSheds) {
  HandshakeShedding shedding(0);
  EXPECT_FALSE(shedding.shed(kStart, kStart - 1000 * kMs));
  EXPECT_FALSE(shedding.shed(kStart + 1000 * kMs, kStart - 1000 * kMs));
}

}  // namespace
}  // namespace service
