// The ring: the first key encrypts and signs, every key decrypts and verifies.
#include "tracking/tokens/key_ring.h"

#include <gtest/gtest.h>

#include "tests/unit/tracking/test_keys.h"

namespace tracking {
namespace {

using testing::ring_of;
using testing::test_key;

TEST(KeyRing, FirstKeySigns) {
  const KeyRing ring = ring_of({7, 3, 5});
  EXPECT_EQ(ring.signing_key().id, 7);
  EXPECT_EQ(ring.entries().size(), 3u);
}

TEST(KeyRing, EveryKeyIsFoundByItsId) {
  const KeyRing ring = ring_of({7, 3, 65535});
  for (uint16_t id : {7, 3, 65535}) {
    const KeyEntry* key = ring.find(id);
    ASSERT_NE(key, nullptr) << id;
    EXPECT_EQ(key->id, id);
    EXPECT_EQ(key->aes_key, test_key(id).aes_key);
  }
}

TEST(KeyRing, UnknownIdIsNotFound) {
  const KeyRing ring = ring_of({1, 2});
  EXPECT_EQ(ring.find(3), nullptr);
  EXPECT_EQ(ring.find(0), nullptr);
  EXPECT_EQ(ring.find(65536 + 1), nullptr);  // not truncated to 1
}

TEST(KeyRing, EmptyRingIsRefused) {
  EXPECT_EQ(KeyRing::from_entries({}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(KeyRing, MoreThanMaxKeysIsRefused) {
  std::vector<KeyEntry> entries;
  for (uint16_t id = 1; id <= KeyRing::kMaxKeys + 1; ++id) entries.push_back(test_key(id));
  EXPECT_EQ(KeyRing::from_entries(std::move(entries)).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(KeyRing, IdZeroIsRefused) {
  const absl::Status status = KeyRing::from_entries({test_key(0)}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("keys[0].id"), std::string_view::npos) << status;
}

TEST(KeyRing, DuplicateIdsAreRefusedNamingBothEntries) {
  const absl::Status status =
      KeyRing::from_entries({test_key(1), test_key(2), test_key(1)}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("keys[2].id: 1 is already the id of keys[0]"),
            std::string_view::npos)
      << status;
}

TEST(KeyRing, GeneratedKeysAreFreshAndCarryTheirIdAndTime) {
  const absl::StatusOr<KeyEntry> a = generate_key_entry(4, 1'763'683'200);
  const absl::StatusOr<KeyEntry> b = generate_key_entry(4, 1'763'683'200);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->id, 4);
  EXPECT_EQ(a->created_s, 1'763'683'200);
  EXPECT_NE(a->aes_key, b->aes_key);
  EXPECT_NE(a->aes_key, a->hmac_key);
}

}  // namespace
}  // namespace tracking
