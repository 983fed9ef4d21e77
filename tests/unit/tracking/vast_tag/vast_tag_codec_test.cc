// A VAST tag end to end: its payload round-trips, it is sealed (the user id never shows)
// under a domain of its own (never a tracking token, nor a token a tag), and a fetched
// query is refused for any altered, missing, repeated or non-canonical parameter.
#include "tracking/vast_tag/vast_tag_codec.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/unit/tracking/test_keys.h"

namespace tracking {
namespace {

using testing::ring_of;

constexpr int64_t kCodecNowS = 1'795'000'000;
constexpr int64_t kCodecExpiresAtS = kCodecNowS + 900;

VastTagPayload sample_payload() {
  VastTagPayload payload;
  payload.ad_id = 1011;
  payload.creative_id = 2012;
  payload.placement_id = 9;
  payload.request_id = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  payload.issued_at_s = kCodecNowS;
  payload.language = "pt-BR";
  payload.user_id = "user-4242";
  return payload;
}

class VastTagCodecTest : public ::testing::Test {
 protected:
  std::string query(const VastTagPayload& payload = sample_payload(), int64_t expires_at_s = kCodecExpiresAtS) {
    std::string out;
    EXPECT_TRUE(tags_.append_query(payload, expires_at_s, out).ok());
    return out;
  }

  KeyRing ring_ = ring_of({3, 1});
  TokenCodec codec_{ring_};
  VastTagCodec tags_{codec_, ring_};
};

TEST_F(VastTagCodecTest, AQueryChecksBackToItsPayload) {
  const std::string text = query();
  const VastTagCheck check = tags_.check(text, kCodecNowS);
  ASSERT_EQ(check.verdict, VastTagVerdict::kValid);
  const VastTagPayload expected = sample_payload();
  EXPECT_EQ(check.payload.ad_id, expected.ad_id);
  EXPECT_EQ(check.payload.creative_id, expected.creative_id);
  EXPECT_EQ(check.payload.placement_id, expected.placement_id);
  EXPECT_EQ(check.payload.request_id, expected.request_id);
  EXPECT_EQ(check.payload.issued_at_s, expected.issued_at_s);
  EXPECT_EQ(check.payload.language, "pt-BR");
  EXPECT_EQ(check.payload.user_id, std::optional<std::string_view>("user-4242"));
  EXPECT_EQ(check.expires_at_s, kCodecExpiresAtS);
}

TEST_F(VastTagCodecTest, NoUserAndNoLanguageRoundTrip) {
  VastTagPayload payload = sample_payload();
  payload.user_id.reset();
  payload.language = {};
  const VastTagCheck check = tags_.check(query(payload), kCodecNowS);
  ASSERT_EQ(check.verdict, VastTagVerdict::kValid);
  EXPECT_FALSE(check.payload.user_id.has_value());
  EXPECT_EQ(check.payload.language, "");
}

TEST_F(VastTagCodecTest, TheUserIdNeverShowsInTheUrl) {
  EXPECT_EQ(query().find("user-4242"), std::string::npos);
  // Two tags of one payload differ: each is sealed with its own nonce.
  EXPECT_NE(query(), query());
}

TEST_F(VastTagCodecTest, ExpiredWhenNowReachesExp) {
  EXPECT_EQ(tags_.check(query(), kCodecExpiresAtS - 1).verdict, VastTagVerdict::kValid);
  EXPECT_EQ(tags_.check(query(), kCodecExpiresAtS).verdict, VastTagVerdict::kExpired);
}

TEST_F(VastTagCodecTest, EveryAlteredCharacterIsABadSignature) {
  const std::string text = query();
  const std::string alphabet = "AZaz09-_&=%";
  for (size_t i = 0; i < text.size(); ++i) {
    for (char replacement : alphabet) {
      if (replacement == text[i]) continue;
      std::string altered = text;
      altered[i] = replacement;
      const VastTagCheck check = tags_.check(altered, kCodecNowS);
      EXPECT_EQ(check.verdict, VastTagVerdict::kBadSignature) << "byte " << i << " -> " << replacement << ": " << altered;
    }
  }
}

TEST_F(VastTagCodecTest, MissingRepeatedOrNonCanonicalParametersAreBadSignatures) {
  const std::string text = query();
  for (std::string_view name : {"d=", "exp=", "kid=", "sig="}) {
    std::string without = "&" + text;
    const size_t at = without.find("&" + std::string(name));
    without.erase(at, without.find('&', at + 1) - at);
    const std::string_view param = name.substr(0, name.size() - 1);
    const VastTagCheck missing = tags_.check(without.substr(1), kCodecNowS);
    EXPECT_EQ(missing.verdict, VastTagVerdict::kBadSignature) << name;
    EXPECT_EQ(missing.field, param);
    const size_t begin = text.find(name);
    const std::string repeated = text + "&" + text.substr(begin, text.find('&', begin) - begin);
    const VastTagCheck twice = tags_.check(repeated, kCodecNowS);
    EXPECT_EQ(twice.verdict, VastTagVerdict::kBadSignature) << name;
    EXPECT_EQ(twice.field, param);
  }
  std::string padded = text;
  padded.insert(padded.find("exp=") + 4, "0");
  EXPECT_EQ(tags_.check(padded, kCodecNowS).verdict, VastTagVerdict::kBadSignature);
  std::string plus = text;
  plus.insert(plus.find("kid=") + 4, "+");
  EXPECT_EQ(tags_.check(plus, kCodecNowS).verdict, VastTagVerdict::kBadSignature);
  EXPECT_EQ(tags_.check("", kCodecNowS).verdict, VastTagVerdict::kBadSignature);
}

TEST_F(VastTagCodecTest, TheVerdictNamesTheParameterItIsAbout) {
  const std::string text = query();
  EXPECT_EQ(tags_.check(text, kCodecNowS).field, "");
  EXPECT_EQ(tags_.check(text, kCodecExpiresAtS).field, "exp");
  std::string wrong_sig = text;
  wrong_sig.back() = wrong_sig.back() == '0' ? '1' : '0';
  EXPECT_EQ(tags_.check(wrong_sig, kCodecNowS).field, "sig");
  std::string other_kid = text;
  other_kid.replace(other_kid.find("kid=3"), 5, "kid=9");
  EXPECT_EQ(tags_.check(other_kid, kCodecNowS).field, "kid");
}

TEST_F(VastTagCodecTest, OtherParametersAreIgnored) {
  EXPECT_EQ(tags_.check("cb=123&" + query() + "&x", kCodecNowS).verdict, VastTagVerdict::kValid);
}

TEST_F(VastTagCodecTest, ATagOfAnotherRingIsABadSignature) {
  const KeyRing other = ring_of({7});
  TokenCodec other_codec(other);
  VastTagCodec other_tags(other_codec, other);
  std::string text;
  ASSERT_TRUE(other_tags.append_query(sample_payload(), kCodecExpiresAtS, text).ok());
  EXPECT_EQ(tags_.check(text, kCodecNowS).verdict, VastTagVerdict::kBadSignature);
}

TEST_F(VastTagCodecTest, PayloadsAndTokensNeverOpenAsEachOther) {
  // A tag's d is no tracking token...
  const std::string text = query();
  const size_t begin = text.find("d=") + 2;
  const std::string d = text.substr(begin, text.find('&') - begin);
  std::string storage;
  EXPECT_EQ(codec_.decode(d, kCodecNowS, storage).verdict, TokenVerdict::kUnauthenticated);
  // ...and a tracking token no tag payload.
  TrackingEvent event;
  event.issued_at_s = kCodecNowS;
  event.expires_at_s = kCodecExpiresAtS;
  std::string token;
  ASSERT_TRUE(codec_.encode(event, token).ok());
  EXPECT_EQ(codec_.open_bytes(kVastTagDomain, token, storage), TokenVerdict::kUnauthenticated);
  // The tracking payload versions are not domains one may seal under.
  EXPECT_FALSE(codec_.seal_bytes(kPayloadVersion, "x", storage).ok());
}

TEST(VastTagPayloadFormat, RefusesWhatItCannotCarryAndReadsOnlyWhatItWrote) {
  std::array<uint8_t, kMaxVastTagPayloadBytes> bytes{};
  VastTagPayload payload = sample_payload();
  payload.language = std::string_view("a-very-long-language-tag-beyond-35-bytes");
  EXPECT_EQ(write_vast_tag_payload(payload, bytes), 0u);
  payload = sample_payload();
  const std::string long_user(kMaxUserIdBytes + 1, 'u');
  payload.user_id = long_user;
  EXPECT_EQ(write_vast_tag_payload(payload, bytes), 0u);
  payload = sample_payload();
  const size_t size = write_vast_tag_payload(payload, bytes);
  ASSERT_GT(size, 0u);
  const std::string written(reinterpret_cast<const char*>(bytes.data()), size);
  VastTagPayload read;
  EXPECT_TRUE(read_vast_tag_payload(written, read));
  for (size_t cut = 0; cut < size; ++cut) EXPECT_FALSE(read_vast_tag_payload(written.substr(0, cut), read)) << cut;
  EXPECT_FALSE(read_vast_tag_payload(written + "x", read));
  std::string other_version = written;
  other_version[0] = 2;
  EXPECT_FALSE(read_vast_tag_payload(other_version, read));
}

}  // namespace
}  // namespace tracking
