// --trusted-proxies' CIDR list (runtime/address_ranges.h) and the address value it matches.
#include "runtime/address_ranges.h"

#include <string>

#include "gtest/gtest.h"

namespace runtime {
namespace {

IpAddress ip(std::string_view text) {
  const std::optional<IpAddress> parsed = IpAddress::parse(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  return parsed.value_or(IpAddress{});
}

AddressRanges ranges(std::string_view text) {
  absl::StatusOr<AddressRanges> parsed = AddressRanges::parse(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status();
  return parsed.ok() ? *parsed : AddressRanges{};
}

TEST(AddressRanges, AnEmptyListTrustsNoOne) {
  const AddressRanges none = ranges("");
  EXPECT_TRUE(none.empty());
  EXPECT_FALSE(none.contains(ip("127.0.0.1")));
  EXPECT_FALSE(none.contains(IpAddress{}));
}

TEST(AddressRanges, Ipv4PrefixesMatchTheirBlockOnly) {
  const AddressRanges list = ranges("10.0.0.0/8, 192.168.4.0/22,172.16.5.4");
  EXPECT_TRUE(list.contains(ip("10.255.1.2")));
  EXPECT_FALSE(list.contains(ip("11.0.0.0")));
  EXPECT_TRUE(list.contains(ip("192.168.7.255")));
  EXPECT_FALSE(list.contains(ip("192.168.8.0")));
  EXPECT_FALSE(list.contains(ip("192.168.3.255")));
  EXPECT_TRUE(list.contains(ip("172.16.5.4")));  // a bare address is a /32
  EXPECT_FALSE(list.contains(ip("172.16.5.5")));
}

TEST(AddressRanges, Ipv6PrefixesMatchTheirBlockOnly) {
  const AddressRanges list = ranges("2001:db8::/32,::1,fe80::/10");
  EXPECT_TRUE(list.contains(ip("2001:db8:ffff::1")));
  EXPECT_FALSE(list.contains(ip("2001:db9::1")));
  EXPECT_TRUE(list.contains(ip("::1")));
  EXPECT_FALSE(list.contains(ip("::2")));
  EXPECT_TRUE(list.contains(ip("febf::1")));
  EXPECT_FALSE(list.contains(ip("fec0::1")));
}

TEST(AddressRanges, FamiliesNeverMatchEachOther) {
  EXPECT_FALSE(ranges("0.0.0.0/0").contains(ip("2001:db8::1")));
  EXPECT_FALSE(ranges("::/0").contains(ip("10.0.0.1")));
  EXPECT_TRUE(ranges("0.0.0.0/0").contains(ip("203.0.113.9")));
  EXPECT_TRUE(ranges("::/0").contains(ip("2a02:cfc0::1")));
}

TEST(AddressRanges, Ipv4MappedAddressesAndRangesAreTheirIpv4Selves) {
  EXPECT_TRUE(ranges("10.0.0.0/8").contains(ip("::ffff:10.1.2.3")));
  EXPECT_TRUE(ranges("::ffff:10.0.0.0/104").contains(ip("10.1.2.3")));
  EXPECT_FALSE(ranges("::ffff:10.0.0.0/104").contains(ip("11.1.2.3")));
}

TEST(AddressRanges, BadItemsAreRefusedNamingThem) {
  for (const char* bad : {"10.0.0.0/33", "::/129", "10.0.0.1/8", "example.com", "10.0.0.0/", "10.0.0.0/8/1",
                          "10.0.0.0/-1", "10.0.0.0/8,", ",10.0.0.0/8", "1.2.3/24", "[::1]", "10.0.0.0 /8x",
                          "::ffff:10.0.0.0/90"}) {
    const absl::StatusOr<AddressRanges> parsed = AddressRanges::parse(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
  }
  const absl::StatusOr<AddressRanges> parsed = AddressRanges::parse("10.0.0.0/8,10.0.0.1/8");
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(std::string(parsed.status().message()).find("'10.0.0.1/8'"), std::string::npos) << parsed.status();
}

TEST(AddressRanges, TheListIsBounded) {
  std::string list;
  for (size_t i = 0; i <= AddressRanges::kMaxRanges; ++i) list += (i ? "," : "") + std::string("10.0.0.1");
  EXPECT_FALSE(AddressRanges::parse(list).ok());
}

TEST(IpAddress, ParsesOnlyStrictLiteralsAndFormatsThemBack) {
  for (const char* bad : {"", "1.2.3", "01.2.3.4", "1.2.3.4:80", "[::1]", "::1%lo", " 1.2.3.4", "unknown"}) {
    EXPECT_FALSE(IpAddress::parse(bad).has_value()) << bad;
  }
  std::array<char, IpAddress::kMaxTextBytes + 1> out{};
  EXPECT_EQ(format_ip(ip("2001:0db8:0000::0001"), out), "2001:db8::1");
  EXPECT_EQ(format_ip(ip("::ffff:192.0.2.1"), out), "192.0.2.1");
  EXPECT_EQ(format_ip(IpAddress{}, out), "");
  EXPECT_TRUE(ip("127.0.0.9").is_loopback());
  EXPECT_TRUE(ip("::1").is_loopback());
  EXPECT_FALSE(ip("::2").is_loopback());
}

}  // namespace
}  // namespace runtime
