// A server list's invariant stays checked in Release (runtime/check.h): every URL is
// "nats://host:port" as parse_server_list writes it.
#include <gtest/gtest.h>

#include "nats_jetstream/server_list.h"

namespace nats_jetstream {
namespace {

TEST(ServerListDeathTest, AUrlWithoutItsSchemeIsNotDescribed) {
  const ServerList servers{.urls = {"nats://a:4222", "b:4222"}, .name = ""};
  EXPECT_DEATH((void)describe(servers), "check failed");
}

}  // namespace
}  // namespace nats_jetstream
