// Whose request it is (http/client_address.h): the nearest untrusted hop of Forwarded
// (RFC 7239) or X-Forwarded-For, read only from a trusted peer.
#include "http/client_address.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace http {
namespace {

using Outcome = ForwardedClient::Outcome;

runtime::IpAddress ip(std::string_view text) { return runtime::IpAddress::parse(text).value_or(runtime::IpAddress{}); }

std::string text_of(const runtime::IpAddress& address) {
  std::array<char, runtime::IpAddress::kMaxTextBytes + 1> out{};
  return std::string(runtime::format_ip(address, out));
}

// A request with these header fields, in order.
struct Fields {
  Fields(std::initializer_list<std::pair<std::string, std::string>> fields) : kept(fields) {
    for (const auto& [name, value] : kept) request.headers[request.header_count++] = {name, value};
  }
  std::vector<std::pair<std::string, std::string>> kept;
  Request request;
};

const runtime::AddressRanges& balancers() {
  static const runtime::AddressRanges ranges = *runtime::AddressRanges::parse("127.0.0.0/8,10.0.0.0/8,2001:db8::/32");
  return ranges;
}

std::string forwarded(std::initializer_list<std::pair<std::string, std::string>> fields) {
  Fields f(fields);
  const ForwardedClient client = forwarded_client(f.request, balancers());
  if (client.outcome == Outcome::kUnusable) return "<unusable>";
  if (client.outcome == Outcome::kTooManyHops) return "<too many hops>";
  if (client.outcome == Outcome::kNoHeader) return "<none>";
  return text_of(client.address);
}

std::string xff(std::initializer_list<std::pair<std::string, std::string>> fields) {
  Fields f(fields);
  const ForwardedClient client = x_forwarded_for_client(f.request, balancers());
  if (client.outcome == Outcome::kUnusable) return "<unusable>";
  if (client.outcome == Outcome::kTooManyHops) return "<too many hops>";
  if (client.outcome == Outcome::kNoHeader) return "<none>";
  return text_of(client.address);
}

TEST(XForwardedFor, TheNearestUntrustedHopIsTheClient) {
  EXPECT_EQ(xff({{"X-Forwarded-For", "89.160.20.112"}}), "89.160.20.112");
  // The client may write anything leftmost; the balancers append: read from the right.
  EXPECT_EQ(xff({{"X-Forwarded-For", "1.2.3.4, 89.160.20.112, 10.0.0.7"}}), "89.160.20.112");
  EXPECT_EQ(xff({{"x-forwarded-for", "203.0.113.1,10.1.1.1,127.0.0.1"}}), "203.0.113.1");
}

TEST(XForwardedFor, SeveralFieldsAreOneListInOrder) {
  EXPECT_EQ(xff({{"X-Forwarded-For", "1.2.3.4"}, {"X-Forwarded-For", "89.160.20.112, 10.0.0.1"}}), "89.160.20.112");
  EXPECT_EQ(xff({{"X-Forwarded-For", "89.160.20.112, 10.0.0.1"}, {"X-Forwarded-For", "216.160.83.56"}}),
            "216.160.83.56");
}

TEST(XForwardedFor, Ipv6BareOrBracketedWithAPortAndIpv4WithAPort) {
  EXPECT_EQ(xff({{"X-Forwarded-For", "2a02:cfc0::1"}}), "2a02:cfc0::1");
  EXPECT_EQ(xff({{"X-Forwarded-For", "[2a02:cfc0::1]:443, 10.0.0.1"}}), "2a02:cfc0::1");
  EXPECT_EQ(xff({{"X-Forwarded-For", "89.160.20.112:51234"}}), "89.160.20.112");
}

TEST(XForwardedFor, EveryHopTrustedGivesTheFarthest) {
  EXPECT_EQ(xff({{"X-Forwarded-For", "10.0.0.3, 10.0.0.2"}}), "10.0.0.3");
}

TEST(XForwardedFor, GarbageOrUnknownAtTheNearestUntrustedHopGivesNoAddress) {
  for (const char* value : {"unknown", "89.160.20.112, unknown, 10.0.0.1", "not-an-ip", "1.2.3.4.5", "[::1",
                            "89.160.20.112:http", "300.1.1.1", "89.160.20.112 10.0.0.1"}) {
    EXPECT_EQ(xff({{"X-Forwarded-For", value}}), "<unusable>") << value;
  }
  // Garbage farther than the client does not matter.
  EXPECT_EQ(xff({{"X-Forwarded-For", "garbage, 89.160.20.112"}}), "89.160.20.112");
  EXPECT_EQ(xff({{"X-Forwarded-For", ""}}), "<unusable>");
}

TEST(XForwardedFor, EmptyElementsAreSkipped) {
  EXPECT_EQ(xff({{"X-Forwarded-For", "89.160.20.112,, 10.0.0.1 ,"}}), "89.160.20.112");
}

TEST(XForwardedFor, OnlyTheNearestHopsAreReadAndAnAllTrustedLongChainGivesNoAddress) {
  std::string long_chain = "89.160.20.112";
  for (size_t i = 0; i < kMaxForwardedHops; ++i) long_chain += ", 10.0.0." + std::to_string(i + 1);
  EXPECT_EQ(xff({{"X-Forwarded-For", long_chain}}), "<too many hops>");
  // The client within reach is found however long the list before it.
  std::string long_prefix;
  for (size_t i = 0; i < 3 * kMaxForwardedHops; ++i) long_prefix += "192.0.2." + std::to_string(i % 250) + ", ";
  EXPECT_EQ(xff({{"X-Forwarded-For", long_prefix + "216.160.83.56, 10.0.0.1"}}), "216.160.83.56");
}

TEST(Forwarded, TheForParameterOfTheNearestUntrustedElementIsTheClient) {
  EXPECT_EQ(forwarded({{"Forwarded", "for=89.160.20.112"}}), "89.160.20.112");
  EXPECT_EQ(forwarded({{"Forwarded", "for=192.0.2.43, for=198.51.100.17;by=203.0.113.60;proto=http, for=10.0.0.1"}}),
            "198.51.100.17");
  EXPECT_EQ(forwarded({{"Forwarded", "proto=https;For=89.160.20.112;host=example.com"}}), "89.160.20.112");
}

TEST(Forwarded, QuotedIpv6WithAPortAndQuotedIpv4) {
  EXPECT_EQ(forwarded({{"Forwarded", R"(for="[2a02:cfc0::1]:4711")"}}), "2a02:cfc0::1");
  EXPECT_EQ(forwarded({{"Forwarded", R"(for="[2a02:cfc0::1]", for="[2001:db8::9]")"}}), "2a02:cfc0::1");
  EXPECT_EQ(forwarded({{"Forwarded", R"(for="89.160.20.112:80")"}}), "89.160.20.112");
}

TEST(Forwarded, ObfuscatedAndUnknownIdentifiersGiveNoAddress) {
  EXPECT_EQ(forwarded({{"Forwarded", "for=_hidden"}}), "<unusable>");
  EXPECT_EQ(forwarded({{"Forwarded", R"(for="_gazonk")"}}), "<unusable>");
  EXPECT_EQ(forwarded({{"Forwarded", "for=unknown, for=10.0.0.1"}}), "<unusable>");
  EXPECT_EQ(forwarded({{"Forwarded", R"(for="[2a02:cfc0::1]:_port")"}}), "<unusable>") << "an obfuscated port too";
  // Behind the client, hidden hops do not matter.
  EXPECT_EQ(forwarded({{"Forwarded", "for=_hidden, for=89.160.20.112, for=10.0.0.1"}}), "89.160.20.112");
}

TEST(Forwarded, BrokenSyntaxGivesNoAddress) {
  for (const char* value : {"for=[2a02:cfc0::1]", R"(for="89.160.20.112)", "for", "by=10.0.0.1", "for=1.2.3.4 x",
                            R"(for="1.2.3\.4")", "for=2a02:cfc0::1", "garbage"}) {
    EXPECT_EQ(forwarded({{"Forwarded", value}}), "<unusable>") << value;
  }
}

TEST(Forwarded, CommasInsideQuotesDoNotSplitElements) {
  EXPECT_EQ(forwarded({{"Forwarded", R"(for=89.160.20.112;ext="a,b", for=10.0.0.1)"}}), "89.160.20.112");
}

TEST(ClientAddressOf, AnUntrustedPeersHeadersAreIgnored) {
  Fields f({{"X-Forwarded-For", "89.160.20.112"}, {"Forwarded", "for=216.160.83.56"}});
  ClientAddressCounters counters;
  EXPECT_EQ(text_of(client_address_of(f.request, ip("203.0.113.5"), &balancers(), counters)), "203.0.113.5");
  EXPECT_EQ(text_of(client_address_of(f.request, ip("127.0.0.1"), nullptr, counters)), "127.0.0.1");
  EXPECT_EQ(counters.forwarded_address.get() + counters.x_forwarded_for_address.get(), 0u);
}

TEST(ClientAddressOf, ATrustedPeerIsTheClientWithoutAHeader) {
  Fields f({{"Host", "x"}});
  ClientAddressCounters counters;
  EXPECT_EQ(text_of(client_address_of(f.request, ip("10.0.0.1"), &balancers(), counters)), "10.0.0.1");
}

TEST(ClientAddressOf, ForwardedIsPreferredToXForwardedForAndEachIsCounted) {
  ClientAddressCounters counters;
  Fields both({{"X-Forwarded-For", "89.160.20.112"}, {"Forwarded", "for=216.160.83.56"}});
  EXPECT_EQ(text_of(client_address_of(both.request, ip("127.0.0.1"), &balancers(), counters)), "216.160.83.56");
  EXPECT_EQ(counters.forwarded_address.get(), 1u);
  Fields only_xff({{"X-Forwarded-For", "89.160.20.112"}});
  EXPECT_EQ(text_of(client_address_of(only_xff.request, ip("127.0.0.1"), &balancers(), counters)), "89.160.20.112");
  EXPECT_EQ(counters.x_forwarded_for_address.get(), 1u);
  Fields hidden({{"X-Forwarded-For", "unknown"}});
  EXPECT_FALSE(client_address_of(hidden.request, ip("127.0.0.1"), &balancers(), counters).known());
  EXPECT_EQ(counters.x_forwarded_for_unusable.get(), 1u);
}

}  // namespace
}  // namespace http
