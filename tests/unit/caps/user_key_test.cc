// User keys and owner cores (docs/caps.md): stable values, even spread, whole shards.
#include "caps/user_key.h"

#include <string>
#include <vector>

#include "caps/cap_partition.h"
#include "gtest/gtest.h"

namespace caps {
namespace {

TEST(UserKey, OwnerCoreSpreadsUsersEvenly) {
  for (uint32_t cores : {2u, 3u, 4u, 8u}) {
    constexpr int kUsers = 80000;
    std::vector<uint32_t> per_core(cores);
    for (int u = 0; u < kUsers; ++u) ++per_core[owner_core(user_key("user-" + std::to_string(u)), cores)];
    const double fair = static_cast<double>(kUsers) / cores;
    for (uint32_t c = 0; c < cores; ++c) {
      EXPECT_NEAR(per_core[c], fair, fair * 0.05) << cores << " cores, core " << c;
    }
  }
}

// Persisted in snapshots and recomputed from the log: a change of hash or seed would orphan
// every saved count, so the value itself is pinned.
TEST(UserKey, IsStable) {
  EXPECT_EQ(user_key("u1"), 0x4193b5fdf0a599feull);
  EXPECT_EQ(user_key(""), 0x5906529f74273986ull);
  EXPECT_NE(user_key("u1"), user_key("u2"));
  EXPECT_EQ(owner_core(user_key("u1"), 1), 0u);
}

// A core owns whole shards: every user of a shard has the same owner, whatever the count of
// cores, so a change of --cores moves shards, not users.
TEST(UserKey, ShardOfIsStableAndOwnedWhole) {
  const CapPartition a;
  const CapPartition b;
  for (int u = 0; u < 5000; ++u) {
    const uint64_t key = user_key("user-" + std::to_string(u));
    ASSERT_EQ(a.shard_of(key), b.shard_of(key));
    ASSERT_LT(a.shard_of(key), CapPartition::kShards);
    for (uint32_t cores : {1u, 2u, 3u, 7u, 16u}) {
      ASSERT_EQ(owner_core(key, cores), a.shard_of(key) % cores);
    }
  }
}

}  // namespace
}  // namespace caps
