// GCM nonces come from batches of random bytes; each is handed out once.
#include "tracking/nonce_pool.h"

#include <gtest/gtest.h>

#include <array>
#include <set>

namespace tracking {
namespace {

using Nonce = std::array<uint8_t, NoncePool::kNonceBytes>;

TEST(NoncePool, EveryNonceIsHandedOutOnceAcrossRefills) {
  NoncePool pool;
  std::set<Nonce> seen;
  const size_t count = 4 * NoncePool::kNoncesPerRefill + 3;
  for (size_t i = 0; i < count; ++i) {
    Nonce nonce;
    ASSERT_TRUE(pool.take(nonce.data()));
    EXPECT_NE(nonce, Nonce{}) << i;
    EXPECT_TRUE(seen.insert(nonce).second) << "repeated nonce at " << i;
  }
}

TEST(NoncePool, SeparatePoolsDrawIndependentNonces) {
  NoncePool a, b;
  Nonce from_a, from_b;
  ASSERT_TRUE(a.take(from_a.data()));
  ASSERT_TRUE(b.take(from_b.data()));
  EXPECT_NE(from_a, from_b);
}

}  // namespace
}  // namespace tracking
