// LoanPool: the bounds of cross-core asks, in all and per peer core.
#include "runtime/loan_pool.h"

#include "gtest/gtest.h"

namespace runtime {
namespace {

constexpr uint32_t kPerPeer = 256;

struct Ask {
  int value = 0;
};

TEST(LoanPool, LendsAtMostItsSize) {
  LoanPool<Ask, kPerPeer> pool(3, 4);
  EXPECT_NE(pool.take(1), nullptr);
  EXPECT_NE(pool.take(2), nullptr);
  Ask* third = pool.take(3);
  EXPECT_NE(third, nullptr);
  EXPECT_EQ(pool.take(1), nullptr);
  EXPECT_EQ(pool.on_loan(), 3u);
  pool.give_back(third, 3);
  EXPECT_EQ(pool.take(1), third);
}

TEST(LoanPool, LendsAtMostPerPeerToOnePeer) {
  LoanPool<Ask, kPerPeer> pool(kPerPeer + 10, 2);
  for (uint32_t i = 0; i < kPerPeer; ++i) ASSERT_NE(pool.take(1), nullptr) << i;
  EXPECT_EQ(pool.take(1), nullptr);
  EXPECT_NE(pool.take(0), nullptr);  // another peer still gets some
}

TEST(LoanPool, SizeZeroRefusesEveryAsk) {
  LoanPool<Ask, kPerPeer> pool(0, 2);
  EXPECT_EQ(pool.take(1), nullptr);
}

TEST(LoanPool, ALoanReturnedTwiceStopsTheProcess) {
  LoanPool<Ask, kPerPeer> pool(2, 2);
  Ask* ask = pool.take(1);
  pool.give_back(ask, 1);
  EXPECT_DEATH(pool.give_back(ask, 1), "check failed: .*a loan came back from a peer that held none");
}

}  // namespace
}  // namespace runtime
