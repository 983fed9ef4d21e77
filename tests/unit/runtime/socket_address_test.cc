#include "runtime/socket_address.h"

#include <unistd.h>

#include "gtest/gtest.h"

namespace runtime {
namespace {

TEST(SocketAddress, ParsesIpv4AndPort) {
  auto a = SocketAddress::parse("10.1.2.3:8080");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->port(), 8080);
  EXPECT_EQ(a->to_string(), "10.1.2.3:8080");
  EXPECT_FALSE(a->is_loopback());
}

TEST(SocketAddress, ParsesBracketedIpv6) {
  auto a = SocketAddress::parse("[::1]:9090");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->to_string(), "[::1]:9090");
  EXPECT_TRUE(a->is_loopback());
}

TEST(SocketAddress, LocalhostIsLoopbackAndEmptyHostIsAny) {
  EXPECT_TRUE(SocketAddress::parse("localhost:1")->is_loopback());
  EXPECT_EQ(SocketAddress::parse(":80")->to_string(), "0.0.0.0:80");
}

TEST(SocketAddress, RefusesWhatIsNotHostColonPort) {
  for (const char* bad : {"", "8080", "host:", "1.2.3.4:65536", "1.2.3.4:-1", "1.2.3.4:80x",
                          "example.com:80", "[::1:80", "999.1.1.1:80"}) {
    EXPECT_FALSE(SocketAddress::parse(bad).ok()) << bad;
  }
}

TEST(SocketAddress, PortZeroListenerReportsItsBoundPort) {
  auto address = SocketAddress::parse("127.0.0.1:0");
  ASSERT_TRUE(address.ok());
  auto fd = open_listener(*address);
  ASSERT_TRUE(fd.ok()) << fd.status();
  auto bound = bound_address(*fd);
  ASSERT_TRUE(bound.ok());
  EXPECT_NE(bound->port(), 0);
  // SO_REUSEPORT: a second listener on the same port succeeds.
  auto second = open_listener(*bound);
  EXPECT_TRUE(second.ok()) << second.status();
  ::close(*fd);
  if (second.ok()) ::close(*second);
}

}  // namespace
}  // namespace runtime
