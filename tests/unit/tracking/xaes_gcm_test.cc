// XAES-256-GCM against the C2SP test vectors, and the codec's use of its nonces.
#include "tracking/tokens/xaes_gcm.h"

#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "tests/unit/tracking/test_events.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/tokens/base64url.h"
#include "tracking/tokens/token_codec.h"

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

std::span<const uint8_t> bytes_of(std::string_view s) { return {reinterpret_cast<const uint8_t*>(s.data()), s.size()}; }

// Seals plaintext with XAES-256-GCM and returns ciphertext || tag in hex.
std::string xaes_seal(const std::array<uint8_t, kXaesKeyBytes>& key, std::string_view nonce, std::string_view plaintext,
                      std::string_view aad) {
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

std::string xaes_seal(uint8_t key_byte, std::string_view nonce, std::string_view plaintext, std::string_view aad) {
  std::array<uint8_t, kXaesKeyBytes> key;
  key.fill(key_byte);
  return xaes_seal(key, nonce, plaintext, aad);
}

// The same construction by another road, with nothing of xaes_gcm.cc: the subkey as the
// spec defines it, CMAC-AES-256 of the 16-byte blocks M1 and M2 (NIST SP 800-108r1 counter
// mode, which is where K1 and its doubling come from), by OpenSSL's CMAC; then OpenSSL EVP
// AES-256-GCM.
std::string openssl_xaes_seal(const std::array<uint8_t, kXaesKeyBytes>& key, std::string_view nonce,
                              std::string_view plaintext, std::string_view aad) {
  uint8_t subkey[32];
  EVP_MAC* cmac = EVP_MAC_fetch(nullptr, "CMAC", nullptr);
  EXPECT_NE(cmac, nullptr);
  char cipher[] = "AES-256-CBC";
  const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, cipher, 0),
                               OSSL_PARAM_construct_end()};
  for (int half = 0; half < 2; ++half) {
    uint8_t m[16] = {0x00, static_cast<uint8_t>(half + 1), 'X', 0x00};
    std::memcpy(m + 4, nonce.data(), 12);
    EVP_MAC_CTX* context = EVP_MAC_CTX_new(cmac);
    size_t written = 0;
    EXPECT_EQ(EVP_MAC_init(context, key.data(), key.size(), params), 1);
    EXPECT_EQ(EVP_MAC_update(context, m, sizeof(m)), 1);
    EXPECT_EQ(EVP_MAC_final(context, subkey + 16 * half, &written, 16), 1);
    EXPECT_EQ(written, 16u);
    EVP_MAC_CTX_free(context);
  }
  EVP_MAC_free(cmac);

  EVP_CIPHER_CTX* gcm = EVP_CIPHER_CTX_new();
  std::vector<uint8_t> out(plaintext.size() + 16);
  int written = 0;
  const auto* iv = reinterpret_cast<const uint8_t*>(nonce.data()) + 12;
  EXPECT_EQ(EVP_EncryptInit_ex(gcm, EVP_aes_256_gcm(), nullptr, subkey, iv), 1);
  if (!aad.empty()) {
    EXPECT_EQ(EVP_EncryptUpdate(gcm, nullptr, &written, bytes_of(aad).data(), static_cast<int>(aad.size())), 1);
  }
  if (!plaintext.empty()) {
    EXPECT_EQ(EVP_EncryptUpdate(gcm, out.data(), &written, bytes_of(plaintext).data(), static_cast<int>(plaintext.size())),
              1);
  }
  EXPECT_EQ(EVP_EncryptFinal_ex(gcm, out.data() + plaintext.size(), &written), 1);
  EXPECT_EQ(EVP_CIPHER_CTX_ctrl(gcm, EVP_CTRL_GCM_GET_TAG, 16, out.data() + plaintext.size()), 1);
  EVP_CIPHER_CTX_free(gcm);
  return hex(out.data(), out.size());
}

TEST(XaesGcm, MatchesTheC2spTestVectors) {
  EXPECT_EQ(xaes_seal(0x01, "ABCDEFGHIJKLMNOPQRSTUVWX", "XAES-256-GCM", ""),
            "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271");
  EXPECT_EQ(xaes_seal(0x03, "ABCDEFGHIJKLMNOPQRSTUVWX", "XAES-256-GCM", "c2sp.org/XAES-256-GCM"),
            "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d");
}

TEST(XaesGcm, AgreesWithOpenSslCmacAndGcmOnRandomInputs) {
  std::mt19937_64 random(20261124);
  const auto random_bytes = [&](size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(random());
    return s;
  };
  for (int i = 0; i < 200; ++i) {
    std::array<uint8_t, kXaesKeyBytes> key;
    for (uint8_t& b : key) b = static_cast<uint8_t>(random());
    const std::string nonce = random_bytes(kXaesNonceBytes);
    const std::string plaintext = random_bytes(static_cast<size_t>(i % 150));
    const std::string aad = random_bytes(static_cast<size_t>(i % 7));
    ASSERT_EQ(xaes_seal(key, nonce, plaintext, aad), openssl_xaes_seal(key, nonce, plaintext, aad)) << "case " << i;
  }
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
