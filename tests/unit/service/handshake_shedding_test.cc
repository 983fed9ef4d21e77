// HandshakeShedding (service/tls/handshake_shedding.h): a ClientHello is shed when it waited
// past the target (a quarter of --shed-lag) and the core has already spent its budget of
// handshakes in the current window (a quarter of 100 ms): a burst fits, a flood is held to
// the budget.
#include "service/tls/handshake_shedding.h"

#include "gtest/gtest.h"

namespace service {
namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kShedLag = 20 * kMs;  // target 5 ms
constexpr int64_t kStart = 1'000'000 * kMs;
constexpr uint64_t kHandshakeNs = 300'000;  // one full handshake, 0.3 ms

TEST(HandshakeShedding, AClientHelloUnderTheTargetIsNeverShedWhateverTheWork) {
  HandshakeShedding shedding(kShedLag);
  uint64_t work = 0;
  for (int64_t t = 0; t < 1000 * kMs; t += kMs, work += kMs) {
    EXPECT_FALSE(shedding.shed(kStart + t, kStart + t - 4 * kMs, work));
  }
}

TEST(HandshakeShedding, ABurstOfSixtyFourHandshakesIsServedWhole) {
  HandshakeShedding shedding(kShedLag);
  // 64 ClientHellos that arrived together, each handled after those before it: the last
  // waits 19 ms, past the target, but 19 ms of work is within the budget of 25.
  for (int i = 0; i < 64; ++i) {
    EXPECT_FALSE(shedding.shed(kStart + i * static_cast<int64_t>(kHandshakeNs), kStart, i * kHandshakeNs)) << i;
  }
}

TEST(HandshakeShedding, AFloodIsShedOnceHalfTheWindowWentToHandshakes) {
  HandshakeShedding shedding(kShedLag);
  uint64_t work = 0;
  int64_t now = kStart;
  int served = 0;
  // Late ClientHellos back to back: each served one costs 0.3 ms, each shed one 10 µs.
  while (now < kStart + HandshakeShedding::kWindowNs) {
    if (shedding.shed(now, now - 8 * kMs, work)) {
      now += 10'000;
    } else {
      ++served;
      work += kHandshakeNs;
      now += static_cast<int64_t>(kHandshakeNs);
    }
  }
  // The budget in handshakes: 25 ms / 0.3 ms.
  EXPECT_EQ(served, static_cast<int>(HandshakeShedding::kBudgetNs / static_cast<int64_t>(kHandshakeNs)) + 1);
  // The next window starts with a fresh budget.
  EXPECT_FALSE(shedding.shed(now + kMs, now - 8 * kMs, work));
}

TEST(HandshakeShedding, ZeroNeverSheds) {
  HandshakeShedding shedding(0);
  EXPECT_FALSE(shedding.shed(kStart, kStart - 1000 * kMs, 0));
  EXPECT_FALSE(shedding.shed(kStart + 1000 * kMs, kStart - 1000 * kMs, 1'000'000 * kMs));
}

}  // namespace
}  // namespace service
