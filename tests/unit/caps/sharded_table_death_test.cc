// The sharded table's slot accounting holds in Release (runtime/check.h). Key 0 marks an
// empty slot, so an entry under it would be written into a slot the table counts as free.
#include <memory>

#include "caps/cap_partition.h"
#include "caps/sharded_table.h"
#include "gtest/gtest.h"
#include "tests/unit/caps/cap_test_values.h"

namespace caps {
namespace {

using testing::kNow;

TEST(ShardedTableDeathTest, InsertingTheEmptySlotKeyStops) {
  auto table = std::make_unique<ShardedTable<CapPartition::Entry>>();
  bool created = false;
  EXPECT_DEATH(table->insert(0, kNow, created), "check failed: .*key 0 is the empty slot");
}

TEST(ShardedTableDeathTest, AnyOtherKeyIsInserted) {
  auto table = std::make_unique<ShardedTable<CapPartition::Entry>>();
  bool created = false;
  ASSERT_NE(table->insert(1, kNow, created), nullptr);
  EXPECT_TRUE(created);
  EXPECT_EQ(table->entries(), 1u);
}

}  // namespace
}  // namespace caps
