// The request path allocates nothing (STYLE): a cap look-up never does, nor does an update
// of an existing entry (only a shard's growth does).
#include "caps/cap_partition.h"
#include "caps/user_key.h"
#include "gtest/gtest.h"
#include "tests/support/allocation_count.h"
#include "tests/unit/caps/cap_test_values.h"

namespace caps {
namespace {

using decision::testing::allocations_while;

using testing::kNow;

TEST(CapPartition, AllowsAllocatesNothing) {
  CapPartition caps;
  const CapRule rules[] = {{3, 86400}, {1, 60}, {40, 604800}};
  for (int u = 0; u < 1000; ++u) caps.record(user_key("u" + std::to_string(u)), 1, rules, kNow);
  const uint64_t known = user_key("u1");
  const uint64_t unknown = user_key("nobody");
  const uint64_t count = allocations_while([&] {
    for (int i = 0; i < 100; ++i) {
      caps.allows(known, 1, rules, kNow + i);
      caps.allows(unknown, 1, rules, kNow + i);
      caps.allows(known, 2, rules, kNow + i);
    }
  });
  EXPECT_EQ(count, 0u);
}

TEST(CapPartition, RecordOfAnExistingEntryAllocatesNothing) {
  CapPartition caps;
  const CapRule rules[] = {{3, 86400}, {40, 604800}};
  const uint64_t user = user_key("u1");
  caps.record(user, 1, rules, kNow);
  EXPECT_EQ(allocations_while([&] { caps.record(user, 1, rules, kNow + 1); }), 0u);
}

}  // namespace
}  // namespace caps
