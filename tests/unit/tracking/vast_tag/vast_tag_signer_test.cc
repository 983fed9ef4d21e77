// Signed VAST tag URLs: d, exp and kid are covered by the signature; a bad signature is
// 10052, an expired tag 10053, and the signature is judged first.
#include "tracking/vast_tag/vast_tag_signer.h"

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <regex>
#include <string>

#include "tests/unit/tracking/test_keys.h"

namespace tracking {
namespace {

using testing::ring_of;
using testing::test_key;

constexpr char kPayload[] = "eyJhZCI6MTAwMX0";
constexpr int64_t kExpiresAtS = 1'763'684'100;
constexpr int64_t kNowS = kExpiresAtS - 60;

// The sig= value of a freshly signed query.
std::string signature_from(VastTagSigner& signer, std::string_view payload = kPayload,
                           int64_t expires_at_s = kExpiresAtS) {
  std::string query;
  EXPECT_TRUE(signer.append_signed_query(payload, expires_at_s, query).ok());
  return query.substr(query.find("&sig=") + 5);
}

TEST(VastTagSigner, SignedQueryHasTheDesignLayout) {
  const KeyRing ring = ring_of({4, 1});
  VastTagSigner signer(ring);
  std::string query = "/v1/vast?";
  ASSERT_TRUE(signer.append_signed_query(kPayload, kExpiresAtS, query).ok());
  EXPECT_TRUE(std::regex_match(
      query, std::regex("/v1/vast\\?d=eyJhZCI6MTAwMX0&exp=1763684100&kid=4&sig=[0-9a-f]{64}")))
      << query;
}

TEST(VastTagSigner, SignatureIsHmacSha256OfTheQueryBeforeSig) {
  const KeyRing ring = ring_of({4});
  VastTagSigner signer(ring);
  // Computed independently, with OpenSSL's one-shot HMAC.
  const std::string text = "d=eyJhZCI6MTAwMX0&exp=1763684100&kid=4";
  const SecretKey& key = test_key(4).hmac_key;
  unsigned char mac[32];
  unsigned int mac_size = 0;
  HMAC(EVP_sha256(), key.data(), key.size(), reinterpret_cast<const unsigned char*>(text.data()),
       text.size(), mac, &mac_size);
  char hex[65];
  for (int i = 0; i < 32; ++i) std::snprintf(hex + 2 * i, 3, "%02x", mac[i]);
  EXPECT_EQ(signature_from(signer), std::string(hex, 64));
}

TEST(VastTagSigner, GenuineTagVerifies) {
  const KeyRing ring = ring_of({1});
  VastTagSigner signer(ring);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, signature_from(signer), kNowS),
            VastTagVerdict::kValid);
}

TEST(VastTagSigner, TamperedPayloadIsABadSignature) {
  const KeyRing ring = ring_of({1});
  VastTagSigner signer(ring);
  const std::string sig = signature_from(signer);
  EXPECT_EQ(signer.verify("eyJhZCI6MTAwMn0", kExpiresAtS, 1, sig, kNowS),
            VastTagVerdict::kBadSignature);
  EXPECT_EQ(signer.verify("", kExpiresAtS, 1, sig, kNowS), VastTagVerdict::kBadSignature);
}

TEST(VastTagSigner, TamperedExpiryIsABadSignature) {
  const KeyRing ring = ring_of({1});
  VastTagSigner signer(ring);
  const std::string sig = signature_from(signer);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS + 86400, 1, sig, kNowS),
            VastTagVerdict::kBadSignature);
}

TEST(VastTagSigner, TamperedKeyIdIsABadSignature) {
  const KeyRing ring = ring_of({1, 2});
  VastTagSigner signer(ring);
  const std::string sig = signature_from(signer);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 2, sig, kNowS), VastTagVerdict::kBadSignature);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 3, sig, kNowS), VastTagVerdict::kBadSignature);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 65536 + 1, sig, kNowS),
            VastTagVerdict::kBadSignature);
}

TEST(VastTagSigner, TamperedSignatureIsABadSignature) {
  const KeyRing ring = ring_of({1});
  VastTagSigner signer(ring);
  const std::string sig = signature_from(signer);
  for (size_t i = 0; i < sig.size(); ++i) {
    std::string tampered = sig;
    tampered[i] = tampered[i] == '0' ? '1' : '0';
    EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, tampered, kNowS),
              VastTagVerdict::kBadSignature)
        << i;
  }
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, sig.substr(0, 63), kNowS),
            VastTagVerdict::kBadSignature);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, sig + "0", kNowS),
            VastTagVerdict::kBadSignature);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, "", kNowS), VastTagVerdict::kBadSignature);
}

TEST(VastTagSigner, UppercaseHexIsABadSignature) {
  // One spelling per signature, as issued: lowercase.
  const KeyRing ring = ring_of({1});
  VastTagSigner signer(ring);
  std::string sig = signature_from(signer);
  for (char& c : sig) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ASSERT_NE(sig, signature_from(signer));
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, sig, kNowS), VastTagVerdict::kBadSignature);
}

TEST(VastTagSigner, ExpiredWhenNowReachesExp) {
  const KeyRing ring = ring_of({1});
  VastTagSigner signer(ring);
  const std::string sig = signature_from(signer);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, sig, kExpiresAtS - 1), VastTagVerdict::kValid);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, sig, kExpiresAtS), VastTagVerdict::kExpired);
  EXPECT_EQ(signer.verify(kPayload, kExpiresAtS, 1, sig, kExpiresAtS + 1),
            VastTagVerdict::kExpired);
}

TEST(VastTagSigner, ExpiredTagWithABadSignatureIsABadSignature) {
  const KeyRing ring = ring_of({1});
  VastTagSigner signer(ring);
  const std::string sig = signature_from(signer);
  EXPECT_EQ(signer.verify("other", kExpiresAtS, 1, sig, kExpiresAtS + 1),
            VastTagVerdict::kBadSignature);
}

TEST(VastTagSigner, RotationTagOfKey2VerifiesAfterKey1IsPutFirst) {
  const KeyRing before = ring_of({2, 1});
  const KeyRing after = ring_of({1, 2});
  VastTagSigner old_signer(before);
  VastTagSigner new_signer(after);
  EXPECT_EQ(new_signer.verify(kPayload, kExpiresAtS, 2, signature_from(old_signer), kNowS),
            VastTagVerdict::kValid);
}

}  // namespace
}  // namespace tracking
