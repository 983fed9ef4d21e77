// What a SIGHUP makes of keys.json (tracking/core_keys/key_reload.h, docs/keys.md
// "Reloading keys"): refused, unchanged or applied, and a signing key the cores do not all
// hold yet opened everywhere before it signs.
#include "tracking/core_keys/key_reload.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/tracking/test_keys.h"

namespace tracking {
namespace {

using testing::ring_of;
using testing::test_key;

constexpr char kFile[] = "/var/lib/decisiond/keys.json";

std::vector<uint16_t> ids_of(const KeyRing& ring) {
  std::vector<uint16_t> ids;
  for (const KeyEntry& entry : ring.entries()) ids.push_back(entry.id);
  return ids;
}

TEST(KeyReload, AFileTheLoaderRefusesIsRefusedWithTheLoadersReason) {
  const std::string why = "/var/lib/decisiond/keys.json: group or others have access (mode 0644)";
  const KeyReload reload = plan_key_reload(ring_of({1}), absl::PermissionDeniedError(why), kFile);
  EXPECT_EQ(reload.result, KeyReloadResult::kRefused);
  EXPECT_EQ(reload.refusal, why);
  EXPECT_FALSE(reload.ring);
  EXPECT_FALSE(reload.opening_first);
}

TEST(KeyReload, OtherBytesUnderAnIdInForceAreRefusedNamingTheFileAndTheId) {
  KeyEntry replaced = test_key(1);
  replaced.aes_key[0] ^= 1;
  const KeyReload reload = plan_key_reload(ring_of({2, 1}), KeyRing::from_entries({test_key(2), replaced}), kFile);
  EXPECT_EQ(reload.result, KeyReloadResult::kRefused);
  EXPECT_NE(reload.refusal.find(std::string(kFile) + ": key 1 holds other bytes than the key of that id in force"),
            std::string::npos)
      << reload.refusal;
  EXPECT_FALSE(reload.ring);
}

TEST(KeyReload, TheSameKeysAreUnchangedWhateverTheOrderOfTheVerifyingKeys) {
  EXPECT_EQ(plan_key_reload(ring_of({3, 1, 2}), ring_of({3, 2, 1}), kFile).result, KeyReloadResult::kUnchanged);
  EXPECT_EQ(plan_key_reload(ring_of({1}), ring_of({1}), kFile).result, KeyReloadResult::kUnchanged);
}

TEST(KeyReload, AVerifyingKeyAddedIsAppliedInOneStep) {
  const KeyReload reload = plan_key_reload(ring_of({1}), ring_of({1, 2}), kFile);  // rotate --no-sign
  ASSERT_EQ(reload.result, KeyReloadResult::kApplied);
  EXPECT_FALSE(reload.opening_first);
  ASSERT_TRUE(reload.ring);
  EXPECT_EQ(ids_of(*reload.ring), (std::vector<uint16_t>{1, 2}));
}

TEST(KeyReload, PromotingAKeyEveryCoreHoldsIsAppliedInOneStep) {
  const KeyReload reload = plan_key_reload(ring_of({1, 2}), ring_of({2, 1}), kFile);  // promote --id=2
  ASSERT_EQ(reload.result, KeyReloadResult::kApplied);
  EXPECT_FALSE(reload.opening_first);
  EXPECT_EQ(reload.ring->signing_key().id, 2);
}

TEST(KeyReload, ARetiredKeyIsAppliedInOneStep) {
  const KeyReload reload = plan_key_reload(ring_of({2, 1}), ring_of({2}), kFile);  // retire --id=1
  ASSERT_EQ(reload.result, KeyReloadResult::kApplied);
  EXPECT_FALSE(reload.opening_first);
  EXPECT_EQ(ids_of(*reload.ring), (std::vector<uint16_t>{2}));
}

TEST(KeyReload, ANewSigningKeyIsOpenedEverywhereBeforeItSigns) {
  const KeyReload reload = plan_key_reload(ring_of({1}), ring_of({2, 1}), kFile);  // rotate
  ASSERT_EQ(reload.result, KeyReloadResult::kApplied);
  ASSERT_TRUE(reload.opening_first);
  EXPECT_EQ(ids_of(*reload.opening_first), (std::vector<uint16_t>{1, 2}));  // key 1 still signs
  EXPECT_EQ(ids_of(*reload.ring), (std::vector<uint16_t>{2, 1}));
}

TEST(KeyReload, TheFirstStepKeepsTheSigningKeyInForceEvenWhenTheFileDroppedIt) {
  const KeyReload reload = plan_key_reload(ring_of({1, 3}), ring_of({2, 3}), kFile);
  ASSERT_EQ(reload.result, KeyReloadResult::kApplied);
  ASSERT_TRUE(reload.opening_first);
  EXPECT_EQ(ids_of(*reload.opening_first), (std::vector<uint16_t>{1, 2, 3}));
  EXPECT_EQ(ids_of(*reload.ring), (std::vector<uint16_t>{2, 3}));
}

TEST(KeyReload, AFileOfTheMostKeysWithoutTheSigningKeyInForceIsAppliedInOneStep) {
  std::vector<KeyEntry> entries;
  for (uint16_t id = 2; id < 2 + KeyRing::kMaxKeys; ++id) entries.push_back(test_key(id));
  const KeyReload reload = plan_key_reload(ring_of({1}), KeyRing::from_entries(std::move(entries)), kFile);
  ASSERT_EQ(reload.result, KeyReloadResult::kApplied);
  EXPECT_FALSE(reload.opening_first);  // one more key than a ring may hold
  EXPECT_EQ(reload.ring->entries().size(), KeyRing::kMaxKeys);
}

TEST(KeyReload, KeysAreDescribedByTheirIdsOnly) {
  EXPECT_EQ(describe_keys(ring_of({2, 1})), "key 2 signs; keys 2, 1 open");
  EXPECT_EQ(describe_keys(ring_of({7})), "key 7 signs; key 7 opens");
}

}  // namespace
}  // namespace tracking
