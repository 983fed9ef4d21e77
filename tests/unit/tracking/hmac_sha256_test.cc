// HMAC-SHA256 through the code path VAST tag signatures use, against RFC 4231's vectors.
#include "tracking/tokens/hmac_sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace tracking {
namespace {

std::string hex_of(const HmacSha256::Mac& mac) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : mac) {
    hex += kDigits[b >> 4];
    hex += kDigits[b & 15];
  }
  return hex;
}

std::string mac_hex(std::string_view key, std::string_view message) {
  HmacSha256 hmac(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
  HmacSha256::Mac mac;
  EXPECT_TRUE(hmac.compute(message, mac));
  return hex_of(mac);
}

TEST(HmacSha256, Rfc4231TestCase2) {
  EXPECT_EQ(mac_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST(HmacSha256, Rfc4231TestCase1) {
  EXPECT_EQ(mac_hex(std::string(20, '\x0b'), "Hi There"),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
}

TEST(HmacSha256, Rfc4231TestCase6KeyLongerThanABlock) {
  EXPECT_EQ(mac_hex(std::string(131, '\xaa'),
                    "Test Using Larger Than Block-Size Key - Hash Key First"),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST(HmacSha256, ReusedContextStartsEachMacFromTheKey) {
  // One keyed context serves every MAC of its key on a core; no message may leak into the
  // next MAC.
  const std::string_view key = "Jefe";
  HmacSha256 hmac(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
  for (int round = 0; round < 3; ++round) {
    HmacSha256::Mac mac;
    ASSERT_TRUE(hmac.compute("what do ya want for nothing?", mac));
    EXPECT_EQ(hex_of(mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    ASSERT_TRUE(hmac.compute("something else", mac));
  }
}

TEST(HmacSha256, EmptyKeyIsAKey) {
  EXPECT_EQ(mac_hex("", ""), "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad");
}

TEST(HmacSha256, MovedMacKeepsItsKey) {
  const std::string_view key = "Jefe";
  HmacSha256 original(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(key.data()), key.size()));
  HmacSha256 moved = std::move(original);
  HmacSha256::Mac mac;
  ASSERT_TRUE(moved.compute("what do ya want for nothing?", mac));
  EXPECT_EQ(hex_of(mac), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

}  // namespace
}  // namespace tracking
