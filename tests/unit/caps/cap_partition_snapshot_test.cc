// CapPartition shards as the snapshot writer stores them (docs/caps.md "Shard format"):
// round trips, a user's entries in one shard, and refusals of malformed bytes.
#include <cstring>
#include <random>
#include <string>

#include "caps/cap_partition.h"
#include "caps/shard_format.h"
#include "caps/user_key.h"
#include "gtest/gtest.h"
#include "tests/unit/caps/cap_test_values.h"

namespace caps {
namespace {

using testing::kNow;
using testing::kUser;

std::string one_shard_of(const CapPartition& caps, uint32_t shard) {
  std::string bytes;
  caps.serialize_shard(shard, kNow, bytes);
  return bytes;
}

// A partition whose shard of kUser holds many entries.
CapPartition populated() {
  CapPartition caps;
  const CapRule rule[] = {{1, 3600}};
  for (int u = 0; u < 3000; ++u) caps.record(user_key("u" + std::to_string(u)), 1, rule, kNow);
  return caps;
}

TEST(CapPartition, ShardsSerializeAndLoadBackToTheSameAnswers) {
  CapPartition caps;
  const CapRule rules[] = {{2, 3600}, {20, 86400}};
  for (int u = 0; u < 500; ++u) {
    for (int i = 0; i < u % 4; ++i) caps.record(user_key("u" + std::to_string(u)), 9, rules, kNow + i);
  }
  CapPartition copy;
  for (uint32_t shard = 0; shard < CapPartition::kShards; ++shard) {
    std::string bytes;
    caps.serialize_shard(shard, kNow + 10, bytes);
    ASSERT_TRUE(copy.load_shard(shard, bytes).ok());
  }
  EXPECT_EQ(copy.entries(), caps.entries());
  for (int u = 0; u < 500; ++u) {
    const uint64_t key = user_key("u" + std::to_string(u));
    EXPECT_EQ(copy.allows(key, 9, rules, kNow + 10), caps.allows(key, 9, rules, kNow + 10)) << u;
  }
}

TEST(CapPartition, SerializeSkipsExpiredEntries) {
  CapPartition caps;
  const CapRule short_cap[] = {{1, 10}};
  caps.record(kUser, 1, short_cap, kNow);
  std::string bytes;
  caps.serialize_shard(caps.shard_of(kUser), kNow + 10, bytes);
  EXPECT_EQ(bytes.size(), sizeof(ShardHeader));
}

// The log replay skips a shard's events by user: every entry of a user, exact or bucketed,
// of any ad, must be in shard_of(user).
TEST(CapPartition, AllEntriesOfAUserLiveInItsShard) {
  CapPartition caps;
  const CapRule rules[] = {{3, 3600}, {10, 86400}, {100, 604800}};
  for (uint64_t ad = 1; ad <= 50; ++ad) caps.record(kUser, ad, rules, kNow);
  ASSERT_EQ(caps.entries(), 150u);
  const uint32_t home = caps.shard_of(kUser);
  EXPECT_EQ(one_shard_of(caps, home).size(), sizeof(ShardHeader) + 150 * sizeof(CapPartition::Entry));
  for (uint32_t shard = 0; shard < CapPartition::kShards; ++shard) {
    if (shard == home) continue;
    ASSERT_EQ(one_shard_of(caps, shard).size(), sizeof(ShardHeader)) << shard;
  }
}

TEST(CapPartition, LoadRefusesEveryTruncation) {
  const CapPartition caps = populated();
  const uint32_t shard = caps.shard_of(kUser);
  const std::string bytes = one_shard_of(caps, shard);
  ASSERT_GT(bytes.size(), sizeof(ShardHeader) + 2 * sizeof(CapPartition::Entry));
  CapPartition target;
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(target.load_shard(shard, std::string_view(bytes).substr(0, n)).ok()) << n;
    EXPECT_EQ(target.entries(), 0u);
  }
  EXPECT_TRUE(target.load_shard(shard, bytes).ok());
  EXPECT_EQ(target.entries(), bytes.size() / sizeof(CapPartition::Entry));
}

TEST(CapPartition, LoadRefusesMalformedHeadersAndEntriesWithAReason) {
  const CapPartition caps = populated();
  const uint32_t shard = caps.shard_of(kUser);
  const std::string good = one_shard_of(caps, shard);
  CapPartition target;
  const auto refusal = [&](const std::string& bytes, uint32_t into) {
    const absl::Status status = target.load_shard(into, bytes);
    EXPECT_EQ(target.entries(), 0u);
    return status.ok() ? std::string("accepted") : std::string(status.message());
  };
  EXPECT_NE(refusal(good, (shard + 1) % CapPartition::kShards).find("another shard"), std::string::npos);
  EXPECT_NE(refusal(good, CapPartition::kShards).find("out of range"), std::string::npos);

  std::string other_version = good;
  other_version[0] = 2;
  EXPECT_NE(refusal(other_version, shard).find("version"), std::string::npos);

  std::string other_size = good;
  other_size[2] = 12;  // a dedup shard's entries
  EXPECT_NE(refusal(other_size, shard).find("bytes"), std::string::npos);

  std::string twice = good;
  twice.append(good, sizeof(ShardHeader), sizeof(CapPartition::Entry));
  const uint32_t count = static_cast<uint32_t>((twice.size() - sizeof(ShardHeader)) / sizeof(CapPartition::Entry));
  std::memcpy(twice.data() + 4, &count, sizeof(count));
  EXPECT_NE(refusal(twice, shard).find("twice"), std::string::npos);

  std::string zero_key = good;
  std::memset(zero_key.data() + sizeof(ShardHeader), 0, sizeof(uint64_t));
  EXPECT_NE(refusal(zero_key, shard).find("zero key"), std::string::npos);
}

// Random bytes and random corruptions of good bytes: refused or loaded, never a crash (run
// under the sanitizers with -DDECISIOND_SANITIZE=ON).
TEST(CapPartition, LoadSurvivesGarbage) {
  const CapPartition caps = populated();
  const uint32_t shard = caps.shard_of(kUser);
  const std::string good = one_shard_of(caps, shard);
  std::mt19937_64 random(7);
  CapPartition target;
  const CapRule rules[] = {{3, 3600}, {50, 86400}};
  for (int round = 0; round < 2000; ++round) {
    std::string bytes = good;
    if (round % 2 == 0) {
      bytes.resize(random() % 200);
      for (char& c : bytes) c = static_cast<char>(random());
    } else {
      for (int flips = 0; flips < 4; ++flips) bytes[random() % bytes.size()] = static_cast<char>(random());
    }
    if (!target.load_shard(shard, bytes).ok()) continue;
    // Whatever loaded answers queries and takes updates.
    target.allows(kUser, 1, rules, kNow);
    target.record(kUser, 1, rules, kNow);
    target.sweep_step(kNow + 100000, 100);
  }
}

}  // namespace
}  // namespace caps
