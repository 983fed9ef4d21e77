// The PROXY protocol v2 header reader (proxy_protocol/proxy_header.h), one test per rule of
// the protocol as docs/client_address.md states it.
#include "proxy_protocol/proxy_header.h"

#include <string>

#include "gtest/gtest.h"
#include "tests/unit/proxy_protocol/proxy_header_bytes.h"

namespace proxy_protocol {
namespace {

using Outcome = HeaderRead::Outcome;

std::string text_of(const runtime::IpAddress& address) {
  std::array<char, runtime::IpAddress::kMaxTextBytes + 1> out{};
  return std::string(runtime::format_ip(address, out));
}

TEST(ProxyHeaderClassify, TheV2SignatureWholeIsAHeader) {
  EXPECT_EQ(classify(std::string(kV2Signature) + "\x21"), Opening::kV2);
  EXPECT_EQ(classify(kV2Signature), Opening::kV2);
}

TEST(ProxyHeaderClassify, APrefixOfASignatureWaitsForMore) {
  for (size_t n = 1; n < kV2Signature.size(); ++n) EXPECT_EQ(classify(kV2Signature.substr(0, n)), Opening::kPartial) << n;
  EXPECT_EQ(classify("PROX"), Opening::kPartial);
}

TEST(ProxyHeaderClassify, TlsHttpAndAWrongSignatureAreNotHeaders) {
  EXPECT_EQ(classify("\x16\x03\x01\x02\x00"), Opening::kNotProxy);
  EXPECT_EQ(classify("GET / HTTP/1.1\r\n"), Opening::kNotProxy);
  std::string wrong(kV2Signature);
  wrong[11] = 'X';  // "QUIT\n" misspelt in its last byte
  EXPECT_EQ(classify(wrong), Opening::kNotProxy);
  EXPECT_EQ(classify("\r\n\r\nGET"), Opening::kNotProxy);
  EXPECT_EQ(classify("POST / HTTP/1.1"), Opening::kNotProxy);
}

TEST(ProxyHeaderClassify, VersionOneIsRecognised) {
  EXPECT_EQ(classify("PROXY TCP4 192.0.2.1 192.0.2.2 1234 443\r\n"), Opening::kV1);
}

TEST(ProxyHeaderRead, AnIpv4ProxyHeaderNamesItsSource) {
  const std::string header = v2_inet("89.160.20.112", "10.0.0.1", 40000, 443);
  const std::string bytes = header + "\x16\x03\x01";
  const HeaderRead read = read_v2(bytes);
  ASSERT_EQ(read.outcome, Outcome::kComplete);
  EXPECT_EQ(read.bytes, header.size());
  EXPECT_EQ(read.bytes, 28u);
  EXPECT_EQ(read.command, Command::kProxy);
  EXPECT_EQ(text_of(read.source), "89.160.20.112");
}

TEST(ProxyHeaderRead, AnIpv6ProxyHeaderNamesItsSource) {
  const std::string header = v2_inet6("2a02:cfc0::1", "2001:db8::2", 40000, 443);
  const HeaderRead read = read_v2(header + "GET");
  ASSERT_EQ(read.outcome, Outcome::kComplete);
  EXPECT_EQ(read.bytes, 52u);
  EXPECT_EQ(text_of(read.source), "2a02:cfc0::1");
}

TEST(ProxyHeaderRead, AnIpv4MappedSourceIsTheIpv4Address) {
  const HeaderRead read = read_v2(v2_inet6("::ffff:89.160.20.112", "::1", 1, 2));
  ASSERT_EQ(read.outcome, Outcome::kComplete);
  EXPECT_EQ(read.source.family, runtime::IpAddress::Family::kV4);
  EXPECT_EQ(text_of(read.source), "89.160.20.112");
}

TEST(ProxyHeaderRead, LocalIgnoresItsAddressBlockAndNamesNoSource) {
  // A health check: family and addresses are whatever the balancer put there.
  const std::string header = v2_header(0x20, 0xff, std::string(7, 'x'));
  const HeaderRead read = read_v2(header);
  ASSERT_EQ(read.outcome, Outcome::kComplete);
  EXPECT_EQ(read.command, Command::kLocal);
  EXPECT_EQ(read.bytes, 23u);
  EXPECT_FALSE(read.source.known());
}

TEST(ProxyHeaderRead, UnspecAndUnixNameNoSource) {
  const HeaderRead unspec = read_v2(v2_header(0x21, 0x00, ""));
  ASSERT_EQ(unspec.outcome, Outcome::kComplete);
  EXPECT_FALSE(unspec.source.known());
  const HeaderRead unix_socket = read_v2(v2_header(0x21, 0x31, std::string(216, '\0')));
  ASSERT_EQ(unix_socket.outcome, Outcome::kComplete);
  EXPECT_FALSE(unix_socket.source.known());
}

TEST(ProxyHeaderRead, TlvsAreSkippedAndTheClientBytesFollowThem) {
  // PP2_TYPE_ALPN "http/1.1", then PP2_TYPE_NOOP with 3 bytes.
  const std::string tlvs = std::string("\x01\x00\x08", 3) + "http/1.1" + std::string("\x04\x00\x03xyz", 6);
  const std::string header = v2_inet("216.160.83.56", "10.0.0.1", 1, 2, tlvs);
  const HeaderRead read = read_v2(header + "GET /");
  ASSERT_EQ(read.outcome, Outcome::kComplete);
  EXPECT_EQ(read.bytes, header.size());
  EXPECT_EQ(text_of(read.source), "216.160.83.56");
}

TEST(ProxyHeaderRead, ATlvPastTheEndIsMalformed) {
  const std::string tlvs = std::string("\x01\x00\x09", 3) + "http/1.1";  // says 9, has 8
  const HeaderRead read = read_v2(v2_inet("216.160.83.56", "10.0.0.1", 1, 2, tlvs));
  EXPECT_EQ(read.outcome, Outcome::kMalformed);
  EXPECT_EQ(read.fault, HeaderFault::kTlv);
  const HeaderRead cut_head = read_v2(v2_inet("216.160.83.56", "10.0.0.1", 1, 2, std::string("\x01\x00", 2)));
  EXPECT_EQ(cut_head.fault, HeaderFault::kTlv);
}

TEST(ProxyHeaderRead, AVersionOtherThanTwoIsMalformed) {
  for (uint8_t version_command : {0x11, 0x31, 0x01, 0xf1}) {
    const HeaderRead read = read_v2(v2_header(version_command, 0x11, std::string(12, '\0')));
    EXPECT_EQ(read.outcome, Outcome::kMalformed) << int{version_command};
    EXPECT_EQ(read.fault, HeaderFault::kVersion) << int{version_command};
  }
}

TEST(ProxyHeaderRead, ACommandOtherThanLocalOrProxyIsMalformed) {
  const HeaderRead read = read_v2(v2_header(0x22, 0x11, std::string(12, '\0')));
  EXPECT_EQ(read.fault, HeaderFault::kCommand);
}

TEST(ProxyHeaderRead, AnUnknownFamilyOrTransportIsMalformed) {
  for (uint8_t family : {0x41, 0xf1, 0x13, 0x1f}) {
    const HeaderRead read = read_v2(v2_header(0x21, family, std::string(12, '\0')));
    EXPECT_EQ(read.outcome, Outcome::kMalformed) << int{family};
    EXPECT_EQ(read.fault, HeaderFault::kFamily) << int{family};
  }
}

TEST(ProxyHeaderRead, ALengthShorterThanTheAddressesIsMalformed) {
  EXPECT_EQ(read_v2(v2_header(0x21, 0x11, std::string(11, '\0'))).fault, HeaderFault::kAddressLength);
  EXPECT_EQ(read_v2(v2_header(0x21, 0x21, std::string(12, '\0'))).fault, HeaderFault::kAddressLength);
}

TEST(ProxyHeaderRead, AnOversizedLengthIsRefusedBeforeItsBytesArrive) {
  std::string fixed(kV2Signature);
  fixed += "\x21\x11";
  const size_t length = kMaxHeaderBytes - kFixedBytes + 1;
  fixed.push_back(static_cast<char>(length >> 8));
  fixed.push_back(static_cast<char>(length & 0xff));
  const HeaderRead read = read_v2(fixed);  // only the 16 fixed bytes
  EXPECT_EQ(read.outcome, Outcome::kMalformed);
  EXPECT_EQ(read.fault, HeaderFault::kOversized);
  // The largest allowed length is read whole.
  const size_t value = kMaxHeaderBytes - kFixedBytes - 12 - 3;  // one NOOP TLV fills the rest
  const std::string noop = std::string(1, '\x04') + port_bytes(static_cast<uint16_t>(value)) + std::string(value, 'p');
  const std::string largest = v2_inet("89.160.20.112", "10.0.0.1", 1, 2, noop);
  ASSERT_EQ(largest.size(), kMaxHeaderBytes);
  EXPECT_EQ(read_v2(largest).outcome, Outcome::kComplete);
}

TEST(ProxyHeaderRead, TruncatedHeadersWaitForTheBytesTheyAnnounce) {
  const std::string header = v2_inet("89.160.20.112", "10.0.0.1", 1, 2);
  const HeaderRead fixed_only = read_v2(header.substr(0, 16));
  EXPECT_EQ(fixed_only.outcome, Outcome::kNeedMore);
  EXPECT_EQ(fixed_only.bytes, header.size());
  EXPECT_EQ(read_v2(header.substr(0, 13)).bytes, kFixedBytes);
}

TEST(ProxyHeaderRead, CutAtEveryByteAValidHeaderOnlyEverWaits) {
  const std::string tlvs = std::string("\x02\x00\x0b", 3) + "example.com";
  for (const std::string& header : {v2_inet("89.160.20.112", "10.0.0.1", 1, 2, tlvs),
                                    v2_inet6("2a02:cfc0::1", "::1", 3, 4), v2_header(0x20, 0x00, "")}) {
    for (size_t n = kV2Signature.size(); n < header.size(); ++n) {
      const HeaderRead read = read_v2(header.substr(0, n));
      EXPECT_EQ(read.outcome, Outcome::kNeedMore) << n;
      EXPECT_GT(read.bytes, n) << n;
      EXPECT_LE(read.bytes, header.size()) << n;
    }
    EXPECT_EQ(read_v2(header).outcome, Outcome::kComplete);
  }
}

TEST(ProxyHeaderRead, CutAtEveryByteAMalformedHeaderIsRefusedOnceItsFaultArrives) {
  const std::string bad_family = v2_header(0x21, 0x51, std::string(12, '\0'));
  for (size_t n = kV2Signature.size(); n <= bad_family.size(); ++n) {
    const HeaderRead read = read_v2(bad_family.substr(0, n));
    if (n <= 13) {
      EXPECT_EQ(read.outcome, Outcome::kNeedMore) << n;
    } else {
      EXPECT_EQ(read.fault, HeaderFault::kFamily) << n;
    }
  }
}

}  // namespace
}  // namespace proxy_protocol
