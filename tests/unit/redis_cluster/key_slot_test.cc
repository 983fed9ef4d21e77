// Hash slots as Redis Cluster computes them (redis_cluster/key_slot.h).
#include "redis_cluster/key_slot.h"

#include "gtest/gtest.h"

namespace redis_cluster {
namespace {

TEST(KeySlot, Crc16XmodemOfTheCheckStringIs0x31C3) { EXPECT_EQ(crc16_xmodem("123456789"), 0x31C3); }

TEST(KeySlot, FooIsInSlot12182) { EXPECT_EQ(key_slot("foo"), 12182); }

TEST(KeySlot, KeysWithTheSameHashTagShareASlot) {
  EXPECT_EQ(key_slot("{user1000}.following"), key_slot("{user1000}.followers"));
  EXPECT_EQ(key_slot("{user1000}.following"), key_slot("user1000"));
}

TEST(KeySlot, AnEmptyTagHashesTheWholeKey) { EXPECT_EQ(key_slot("{}foo"), crc16_xmodem("{}foo") % kSlotCount); }

TEST(KeySlot, OnlyTheFirstBraceCountsSoAnEmptyFirstTagHashesTheWholeKey) {
  EXPECT_EQ(key_slot("foo{}{bar}"), crc16_xmodem("foo{}{bar}") % kSlotCount);
}

TEST(KeySlot, TheTagEndsAtTheFirstClosingBraceAfterTheFirstOpeningOne) {
  EXPECT_EQ(key_slot("foo{{bar}}zap"), crc16_xmodem("{bar") % kSlotCount);
  EXPECT_EQ(key_slot("foo{bar}{zap}"), key_slot("bar"));
}

TEST(KeySlot, AnUnclosedBraceHashesTheWholeKey) { EXPECT_EQ(key_slot("foo{bar"), crc16_xmodem("foo{bar") % kSlotCount); }

}  // namespace
}  // namespace redis_cluster
