#include "nats_jetstream/server_list.h"

#include <gtest/gtest.h>

namespace nats_jetstream {
namespace {

TEST(ServerList, OneServerOrSeveral) {
  const auto one = parse_server_list("nats://127.0.0.1:4222");
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->urls, (std::vector<std::string>{"nats://127.0.0.1:4222"}));
  EXPECT_EQ(one->name, "");
  const auto three = parse_server_list("nats://a.example:4222,10.0.0.2:4223,[::1]:4224");
  ASSERT_TRUE(three.ok()) << three.status();
  EXPECT_EQ(three->urls,
            (std::vector<std::string>{"nats://a.example:4222", "nats://10.0.0.2:4223", "nats://[::1]:4224"}));
  EXPECT_EQ(describe(*three), "nats://a.example:4222,10.0.0.2:4223,[::1]:4224");
}

TEST(ServerList, WhatIsNotAServerListIsRefusedWithTheReason) {
  const std::pair<const char*, const char*> cases[] = {
      {"127.0.0.1:4222", "must start with nats://"},
      {"nats://", "no servers"},
      {"nats://a:4222,,b:4222", "empty entry"},
      {"nats://a", "no port"},
      {"nats://a:", "no port"},
      {"nats://a:0", "port must be 1 to 65535"},
      {"nats://a:65536", "port must be 1 to 65535"},
      {"nats://a:42x", "port must be 1 to 65535"},
      {"nats://:4222", "no host"},
      {"nats://a b:4222", "not a host name"},
      {"nats://a:4222/catalog", "a server list has no path"},
  };
  for (const auto& [text, why] : cases) {
    const auto parsed = parse_server_list(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.status().message().find(why), std::string::npos) << text << ": " << parsed.status();
  }
}

TEST(ServerList, ANamedListEndsWithItsName) {
  const auto named = parse_named_server_list("nats://a:4222,b:4223/main-catalog_2");
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_EQ(named->urls.size(), 2u);
  EXPECT_EQ(named->name, "main-catalog_2");
  const std::pair<const char*, const char*> cases[] = {
      {"nats://a:4222", "no name"},
      {"nats://a:4222/", "empty name"},
      {"nats://a:4222/a.b", "letters, digits"},
      {"nats://a:4222/x/y", "letters, digits"},
      {"nats:///name", "no servers"},
  };
  for (const auto& [text, why] : cases) {
    const auto parsed = parse_named_server_list(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_NE(parsed.status().message().find(why), std::string::npos) << text << ": " << parsed.status();
  }
}

}  // namespace
}  // namespace nats_jetstream
