// XAES-256-GCM against the C2SP test vectors, and the codec's use of its nonces.
#include "tracking/xaes_gcm.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "tests/unit/tracking/test_events.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/base64url.h"
#include "tracking/token_codec.h"

namespace tracking {
namespace {

std::string hex(const uint8_t* bytes, size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 15]);
  }
  return out;
}

// Seals plaintext with XAES-256-GCM and returns ciphertext || tag in hex.
std::string xaes_seal(uint8_t key_byte, std::string_view nonce, std::string_view plaintext, std::string_view aad) {
  std::array<uint8_t, kXaesKeyBytes> key;
  key.fill(key_byte);
  XaesKey xaes(key);
  std::array<uint8_t, kXaesKeyBytes> subkey{};
  xaes.derive(std::span<const uint8_t, kXaesPrefixBytes>(reinterpret_cast<const uint8_t*>(nonce.data()), kXaesPrefixBytes),
              subkey);
  GcmKey gcm;
  gcm.set_key(subkey);
  std::string data(plaintext);
  uint8_t tag[kGcmTagBytes];
  EXPECT_TRUE(gcm.seal(std::span<const uint8_t, kGcmNonceBytes>(reinterpret_cast<const uint8_t*>(nonce.data()) + 12, 12),
                       std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(aad.data()), aad.size()),
                       std::span<uint8_t>(reinterpret_cast<uint8_t*>(data.data()), data.size()), tag));
  return hex(reinterpret_cast<const uint8_t*>(data.data()), data.size()) + hex(tag, sizeof(tag));
}

TEST(XaesGcm, MatchesTheC2spTestVectors) {
  EXPECT_EQ(xaes_seal(0x01, "ABCDEFGHIJKLMNOPQRSTUVWX", "XAES-256-GCM", ""),
            "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271");
  EXPECT_EQ(xaes_seal(0x03, "ABCDEFGHIJKLMNOPQRSTUVWX", "XAES-256-GCM", "c2sp.org/XAES-256-GCM"),
            "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d");
}

TEST(XaesGcm, OpenRefusesAChangedTag) {
  std::array<uint8_t, kXaesKeyBytes> key;
  key.fill(7);
  GcmKey gcm;
  gcm.set_key(key);
  uint8_t nonce[12] = {};
  std::string data = "payload";
  uint8_t tag[16];
  ASSERT_TRUE(gcm.seal(nonce, {}, std::span<uint8_t>(reinterpret_cast<uint8_t*>(data.data()), data.size()), tag));
  tag[3] ^= 1;
  EXPECT_FALSE(gcm.open(nonce, {}, std::span<uint8_t>(reinterpret_cast<uint8_t*>(data.data()), data.size()), tag));
}

// The raw nonce of a token: 24 bytes after the 2-byte key id.
std::string nonce_of(const std::string& token) {
  std::string raw;
  EXPECT_TRUE(base64url_decode(token, raw));
  return raw.substr(TokenCodec::kKeyIdBytes, TokenCodec::kNonceBytes);
}

TEST(TokenNonces, ACodecKeepsItsPrefixAndCountsInTheRest) {
  const KeyRing keys = testing::ring_of({1});
  TokenCodec codec(keys);
  std::string a, b;
  ASSERT_TRUE(codec.encode(testing::sample_event(EventKind::kImpression), a).ok());
  ASSERT_TRUE(codec.encode(testing::sample_event(EventKind::kImpression), b).ok());
  const std::string na = nonce_of(a), nb = nonce_of(b);
  EXPECT_EQ(na.substr(0, 12), nb.substr(0, 12));
  EXPECT_NE(na.substr(12), nb.substr(12));
  EXPECT_EQ(static_cast<uint8_t>(nb.back()), static_cast<uint8_t>(na.back()) + 1);
}

TEST(TokenNonces, EveryCodecDrawsItsOwnPrefix) {
  const KeyRing keys = testing::ring_of({1});
  std::set<std::string> prefixes;
  for (int i = 0; i < 50; ++i) {
    TokenCodec codec(keys);
    std::string token;
    ASSERT_TRUE(codec.encode(testing::sample_event(EventKind::kImpression), token).ok());
    prefixes.insert(nonce_of(token).substr(0, 12));
  }
  EXPECT_EQ(prefixes.size(), 50u);
}

TEST(TokenNonces, ATokenOpensInAnotherCodecAndAfterRotation) {
  const KeyRing old_ring = testing::ring_of({1});
  TokenCodec sealer(old_ring);
  std::string token, storage;
  ASSERT_TRUE(sealer.encode(testing::sample_event(EventKind::kClick), token).ok());
  const KeyRing rotated = testing::ring_of({2, 1});  // key 1 now verifies only
  TokenCodec opener(rotated);
  for (int i = 0; i < 3; ++i) {  // the first derives the subkey, the rest hit the cache
    const DecodedToken decoded = opener.decode(token, testing::kIssuedAtS, storage);
    ASSERT_TRUE(decoded.ok()) << verdict_name(decoded.verdict);
    testing::expect_same_event(decoded.event, testing::sample_event(EventKind::kClick));
  }
}

TEST(TokenNonces, ManyPrefixesThroughOneCacheStillOpen) {
  const KeyRing keys = testing::ring_of({1});
  TokenCodec opener(keys);
  std::vector<std::string> tokens;
  for (int i = 0; i < 600; ++i) {  // more codecs than cache entries: misses and evictions
    TokenCodec sealer(keys);
    std::string token;
    ASSERT_TRUE(sealer.encode(testing::sample_event(EventKind::kImpression), token).ok());
    tokens.push_back(token);
  }
  std::string storage;
  for (const std::string& token : tokens) EXPECT_TRUE(opener.decode(token, testing::kIssuedAtS, storage).ok());
}

}  // namespace
}  // namespace tracking
