// The slot map read from a CLUSTER SHARDS reply in RESP2 (redis_cluster/cluster_shards.h).
#include "redis_cluster/cluster_shards.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace redis_cluster {
namespace {

std::string bulk(const std::string& s) { return absl::StrCat("$", s.size(), "\r\n", s, "\r\n"); }

std::string node(const std::string& ip, int port, const std::string& role, const std::string& health) {
  return absl::StrCat("*14\r\n", bulk("id"), bulk("0123abcd"), bulk("port"), ":", port, "\r\n", bulk("ip"), bulk(ip),
                      bulk("endpoint"), bulk(ip), bulk("role"), bulk(role), bulk("replication-offset"), ":126\r\n",
                      bulk("health"), bulk(health));
}

std::string shard(const std::string& slots, int slot_values, const std::string& nodes, int node_count) {
  return absl::StrCat("*4\r\n", bulk("slots"), "*", slot_values, "\r\n", slots, bulk("nodes"), "*", node_count,
                      "\r\n", nodes);
}

absl::StatusOr<std::vector<ShardPrimary>> parse(const std::string& bytes) {
  RespReader reader;
  EXPECT_TRUE(reader.feed(bytes));
  EXPECT_EQ(reader.next(), RespReader::Result::kReply);
  return parse_cluster_shards(reader.reply());
}

TEST(ClusterShards, EachShardsSlotsGoToItsOnlinePrimary) {
  const std::string reply = absl::StrCat(
      "*2\r\n",
      shard(":0\r\n:5460\r\n", 2,
            node("127.0.0.1", 7101, "master", "online") + node("127.0.0.1", 7105, "replica", "online"), 2),
      shard(":5461\r\n:10922\r\n:10923\r\n:16383\r\n", 4,
            node("127.0.0.1", 7106, "replica", "online") + node("10.0.0.2", 7102, "master", "online"), 2));
  const auto shards = parse(reply);
  ASSERT_TRUE(shards.ok()) << shards.status();
  ASSERT_EQ(shards->size(), 2u);
  EXPECT_EQ((*shards)[0].address, (NodeAddress{"127.0.0.1", 7101}));
  ASSERT_EQ((*shards)[0].ranges.size(), 1u);
  EXPECT_EQ((*shards)[0].ranges[0].first, 0);
  EXPECT_EQ((*shards)[0].ranges[0].last, 5460);
  EXPECT_EQ((*shards)[1].address, (NodeAddress{"10.0.0.2", 7102}));
  ASSERT_EQ((*shards)[1].ranges.size(), 2u);
  EXPECT_EQ((*shards)[1].ranges[1].first, 10923);
  EXPECT_EQ((*shards)[1].ranges[1].last, 16383);
}

TEST(ClusterShards, AShardWhosePrimaryIsNotOnlineIsLeftOut) {
  const std::string reply =
      absl::StrCat("*1\r\n", shard(":0\r\n:16383\r\n", 2, node("127.0.0.1", 7101, "master", "fail"), 1));
  const auto shards = parse(reply);
  ASSERT_TRUE(shards.ok()) << shards.status();
  EXPECT_TRUE(shards->empty());
}

TEST(ClusterShards, AShardWithoutSlotsIsLeftOut) {
  const auto shards = parse(absl::StrCat("*1\r\n", shard("", 0, node("127.0.0.1", 7101, "master", "online"), 1)));
  ASSERT_TRUE(shards.ok()) << shards.status();
  EXPECT_TRUE(shards->empty());
}

TEST(ClusterShards, ASlotPastTheLastIsAnError) {
  const auto shards =
      parse(absl::StrCat("*1\r\n", shard(":0\r\n:16384\r\n", 2, node("127.0.0.1", 7101, "master", "online"), 1)));
  EXPECT_FALSE(shards.ok());
}

TEST(ClusterShards, AnErrorReplyIsAnError) { EXPECT_FALSE(parse("-ERR This instance has cluster support disabled\r\n").ok()); }

}  // namespace
}  // namespace redis_cluster
