// The seed list as the operator writes it (redis_cluster/seed_list.h).
#include "redis_cluster/seed_list.h"

#include "gtest/gtest.h"

namespace redis_cluster {
namespace {

std::string error_of(std::string_view url) {
  const auto parsed = parse_seed_list(url);
  EXPECT_FALSE(parsed.ok()) << url;
  return parsed.ok() ? std::string() : std::string(parsed.status().message());
}

TEST(SeedList, OneSeed) {
  const auto seeds = parse_seed_list("redis://127.0.0.1:7000");
  ASSERT_TRUE(seeds.ok()) << seeds.status();
  EXPECT_EQ(*seeds, (std::vector<NodeAddress>{{"127.0.0.1", 7000}}));
}

TEST(SeedList, SeveralSeedsIncludingLocalhostAndIpv6) {
  const auto seeds = parse_seed_list("redis://10.0.0.1:7000,localhost:7001,[::1]:7002");
  ASSERT_TRUE(seeds.ok()) << seeds.status();
  EXPECT_EQ(*seeds, (std::vector<NodeAddress>{{"10.0.0.1", 7000}, {"localhost", 7001}, {"::1", 7002}}));
  EXPECT_EQ(to_host_port((*seeds)[2]), "[::1]:7002");
}

TEST(SeedList, MissingSchemeIsNamed) { EXPECT_NE(error_of("127.0.0.1:7000").find("redis://"), std::string::npos); }

TEST(SeedList, EmptyListIsNamed) { EXPECT_NE(error_of("redis://").find("empty"), std::string::npos); }

TEST(SeedList, EmptyEntryIsNamed) { EXPECT_NE(error_of("redis://127.0.0.1:7000,").find("empty entry"), std::string::npos); }

TEST(SeedList, MissingPortIsNamed) { EXPECT_NE(error_of("redis://127.0.0.1").find("no port"), std::string::npos); }

TEST(SeedList, BadPortsAreNamed) {
  for (const char* url : {"redis://127.0.0.1:", "redis://127.0.0.1:0", "redis://127.0.0.1:65536", "redis://127.0.0.1:7x"}) {
    EXPECT_NE(error_of(url).find("port must be 1 to 65535"), std::string::npos) << url;
  }
}

TEST(SeedList, MissingHostIsNamed) { EXPECT_NE(error_of("redis://:7000").find("no host"), std::string::npos); }

TEST(SeedList, HostNamesAreRefusedForWantOfNonBlockingDns) {
  EXPECT_NE(error_of("redis://redis.internal:7000").find("no DNS"), std::string::npos);
}

}  // namespace
}  // namespace redis_cluster
