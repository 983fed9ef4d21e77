// Tracking tokens: what encode writes, decode gives back, and nothing else decodes.
#include "tracking/tokens/token_codec.h"

#include <gtest/gtest.h>
#include <xxhash.h>

#include <cctype>
#include <string>

#include "tests/unit/tracking/test_events.h"
#include "tests/unit/tracking/test_keys.h"

namespace tracking {
namespace {

using testing::every_kind_of_event;
using testing::expect_same_event;
using testing::kIssuedAtS;
using testing::ring_of;
using testing::sample_event;

constexpr int64_t kNowS = kIssuedAtS + 10;

std::string token_of(TokenCodec& codec, const TrackingEvent& event) {
  std::string token;
  const absl::Status encoded = codec.encode(event, token);
  EXPECT_TRUE(encoded.ok()) << encoded;
  return token;
}

TokenVerdict verdict_of(TokenCodec& codec, std::string_view token, int64_t now_s = kNowS) {
  std::string storage;
  return codec.decode(token, now_s, storage).verdict;
}

bool is_refused(TokenVerdict verdict) {
  return verdict != TokenVerdict::kValid && verdict != TokenVerdict::kExpired;
}

TEST(TokenCodec, EveryEventKindRoundTripsWithAndWithoutUserId) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  for (TrackingEvent event : every_kind_of_event()) {
    for (std::optional<std::string_view> user_id :
         {std::optional<std::string_view>{}, std::optional<std::string_view>{"user-4711"},
          std::optional<std::string_view>{""}}) {
      event.user_id = user_id;
      const std::string token = token_of(codec, event);
      std::string storage;
      const DecodedToken decoded = codec.decode(token, kNowS, storage);
      ASSERT_EQ(decoded.verdict, TokenVerdict::kValid) << event_name(event);
      expect_same_event(decoded.event, event);
    }
  }
}

TEST(TokenCodec, ExtremeValuesRoundTrip) {
  const KeyRing ring = ring_of({65535});
  TokenCodec codec(ring);
  TrackingEvent event = sample_event(EventKind::kImpression);
  event.ad_id = UINT64_MAX;
  event.creative_id = 0;
  event.placement_id = 1ull << 63;
  event.request_id.fill(0xff);
  event.issued_at_s = 0;
  event.expires_at_s = INT64_MAX;
  std::string storage;
  const DecodedToken decoded = codec.decode(token_of(codec, event), 1, storage);
  ASSERT_EQ(decoded.verdict, TokenVerdict::kValid);
  expect_same_event(decoded.event, event);
}

TEST(TokenCodec, DecodedStringsPointIntoTheCallersStorage) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  TrackingEvent event = sample_event(EventKind::kClick);
  event.user_id = "user-4711";
  std::string storage;
  const DecodedToken decoded = codec.decode(token_of(codec, event), kNowS, storage);
  ASSERT_TRUE(decoded.ok());
  const auto inside = [&](std::string_view text) {
    return text.data() >= storage.data() && text.data() + text.size() <= storage.data() + storage.size();
  };
  EXPECT_TRUE(inside(decoded.event.click_url));
  EXPECT_TRUE(inside(*decoded.event.user_id));
}

TEST(TokenCodec, TokensAreUrlSafeText) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  for (const TrackingEvent& event : every_kind_of_event()) {
    for (char c : token_of(codec, event)) {
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') << c;
    }
  }
}

TEST(TokenCodec, EveryTokenHasAFreshNonce) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  const TrackingEvent event = sample_event(EventKind::kImpression);
  EXPECT_NE(token_of(codec, event), token_of(codec, event));
}

TEST(TokenCodec, EncodeAppendsToTheOutput) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  std::string url = "http://127.0.0.1:8080/v1/tracking?t=";
  ASSERT_TRUE(codec.encode(sample_event(EventKind::kImpression), url).ok());
  const std::string token = url.substr(url.find("t=") + 2);
  EXPECT_EQ(verdict_of(codec, token), TokenVerdict::kValid);
}

TEST(TokenCodec, FlippingAnyBitOfAnyTokenByteIsRefused) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  TrackingEvent event = sample_event(EventKind::kClick);
  event.user_id = "user-4711";
  const std::string token = token_of(codec, event);
  std::string raw;
  ASSERT_TRUE(base64url_decode(token, raw));
  for (size_t i = 0; i < raw.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string tampered_raw = raw;
      tampered_raw[i] = static_cast<char>(tampered_raw[i] ^ (1 << bit));
      std::string tampered;
      base64url_encode(tampered_raw, tampered);
      EXPECT_TRUE(is_refused(verdict_of(codec, tampered))) << "byte " << i << " bit " << bit;
    }
  }
}

TEST(TokenCodec, FlippingAnyBitOfAnyTokenCharacterIsRefused) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  const std::string token = token_of(codec, sample_event(EventKind::kImpression));
  for (size_t i = 0; i < token.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string tampered = token;
      tampered[i] = static_cast<char>(tampered[i] ^ (1 << bit));
      EXPECT_TRUE(is_refused(verdict_of(codec, tampered))) << "char " << i << " bit " << bit;
    }
  }
}

TEST(TokenCodec, EveryTruncationIsRefused) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  const std::string token = token_of(codec, sample_event(EventKind::kImpression));
  for (size_t length = 0; length < token.size(); ++length) {
    EXPECT_TRUE(is_refused(verdict_of(codec, token.substr(0, length)))) << length;
  }
}

TEST(TokenCodec, EmptyTokenIsMalformed) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  EXPECT_EQ(verdict_of(codec, ""), TokenVerdict::kMalformed);
}

TEST(TokenCodec, PaddedTokenIsMalformed) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  const std::string token = token_of(codec, sample_event(EventKind::kImpression));
  EXPECT_EQ(verdict_of(codec, token + "="), TokenVerdict::kMalformed);
  EXPECT_EQ(verdict_of(codec, token + "=="), TokenVerdict::kMalformed);
}

TEST(TokenCodec, NonAlphabetCharactersAreMalformed) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  const std::string token = token_of(codec, sample_event(EventKind::kImpression));
  for (char bad : {'+', '/', ' ', '\n', '.', '%', '\0', '='}) {
    std::string replaced = token;
    replaced[token.size() / 2] = bad;
    EXPECT_EQ(verdict_of(codec, replaced), TokenVerdict::kMalformed) << int{bad};
    std::string appended = token + bad;
    EXPECT_TRUE(is_refused(verdict_of(codec, appended))) << int{bad};
  }
}

TEST(TokenCodec, OverlongTokenTextIsMalformed) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  EXPECT_EQ(verdict_of(codec, std::string(TokenCodec::kMaxTokenChars + 1, 'A')),
            TokenVerdict::kMalformed);
}

TEST(TokenCodec, TokenOfAnUnknownKeyIdIsRefused) {
  const KeyRing ours = ring_of({1});
  const KeyRing theirs = ring_of({3});
  TokenCodec decoder(ours);
  TokenCodec encoder(theirs);
  EXPECT_EQ(verdict_of(decoder, token_of(encoder, sample_event(EventKind::kImpression))),
            TokenVerdict::kUnknownKey);
}

TEST(TokenCodec, TokenOfAnotherKeyUnderAKnownIdIsUnauthenticated) {
  const KeyRing ours = ring_of({1});
  std::vector<KeyEntry> forged_entries = {testing::test_key(2)};
  forged_entries[0].id = 1;  // claims our id, with another key
  absl::StatusOr<KeyRing> forged = KeyRing::from_entries(std::move(forged_entries));
  ASSERT_TRUE(forged.ok());
  TokenCodec decoder(ours);
  TokenCodec forger(*forged);
  EXPECT_EQ(verdict_of(decoder, token_of(forger, sample_event(EventKind::kImpression))),
            TokenVerdict::kUnauthenticated);
}

TEST(TokenCodec, RotationTokenOfKey2DecodesAfterKey1IsPutFirst) {
  const KeyRing before = ring_of({2, 1});
  const KeyRing after = ring_of({1, 2});
  TokenCodec old_codec(before);
  TokenCodec new_codec(after);
  const TrackingEvent event = sample_event(EventKind::kClick);
  std::string storage;
  const DecodedToken decoded = new_codec.decode(token_of(old_codec, event), kNowS, storage);
  ASSERT_EQ(decoded.verdict, TokenVerdict::kValid);
  expect_same_event(decoded.event, event);
  // And the new signing key's tokens are read by the old ring too.
  EXPECT_EQ(verdict_of(old_codec, token_of(new_codec, event)), TokenVerdict::kValid);
}

TEST(TokenCodec, RotationRetiredKeysTokensAreRefused) {
  const KeyRing before = ring_of({2, 1});
  const KeyRing retired = ring_of({3, 1});
  TokenCodec old_codec(before);
  TokenCodec new_codec(retired);
  EXPECT_EQ(verdict_of(new_codec, token_of(old_codec, sample_event(EventKind::kImpression))),
            TokenVerdict::kUnknownKey);
}

TEST(TokenCodec, ExpiredWhenNowReachesExpiresAt) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  const TrackingEvent event = sample_event(EventKind::kImpression);
  const std::string token = token_of(codec, event);
  EXPECT_EQ(verdict_of(codec, token, event.issued_at_s), TokenVerdict::kValid);
  EXPECT_EQ(verdict_of(codec, token, event.expires_at_s - 1), TokenVerdict::kValid);
  EXPECT_EQ(verdict_of(codec, token, event.expires_at_s), TokenVerdict::kExpired);
  EXPECT_EQ(verdict_of(codec, token, event.expires_at_s + 1), TokenVerdict::kExpired);
}

TEST(TokenCodec, ExpiredTokenStillCarriesItsAuthenticEvent) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  const TrackingEvent event = sample_event(EventKind::kCustom);
  std::string storage;
  const DecodedToken decoded = codec.decode(token_of(codec, event), event.expires_at_s, storage);
  ASSERT_EQ(decoded.verdict, TokenVerdict::kExpired);
  EXPECT_FALSE(decoded.ok());
  expect_same_event(decoded.event, event);
}

TEST(TokenCodec, RefusedTokenLeavesStorageEmpty) {
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  std::string token = token_of(codec, sample_event(EventKind::kImpression));
  token[token.size() / 2] = token[token.size() / 2] == 'A' ? 'B' : 'A';
  std::string storage = "previous";
  EXPECT_EQ(codec.decode(token, kNowS, storage).verdict, TokenVerdict::kUnauthenticated);
  EXPECT_TRUE(storage.empty());
}

TEST(TokenCodec, CodecKeepsWorkingAfterRefusals) {
  // A refused token must not leave the reused OpenSSL context in a state that breaks the next.
  const KeyRing ring = ring_of({1});
  TokenCodec codec(ring);
  const std::string token = token_of(codec, sample_event(EventKind::kImpression));
  std::string tampered = token;
  tampered[20] = tampered[20] == 'A' ? 'B' : 'A';
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(verdict_of(codec, tampered), TokenVerdict::kUnauthenticated);
    EXPECT_EQ(verdict_of(codec, token), TokenVerdict::kValid);
  }
}

}  // namespace
}  // namespace tracking

namespace tracking {
namespace {

TEST(TokenCodecIdentity, EachTokenHasItsOwnIdAndKeepsIt) {
  const KeyRing keys = testing::ring_of({1});
  TokenCodec codec(keys);
  std::string first, second, storage;
  ASSERT_TRUE(codec.encode(testing::sample_event(EventKind::kImpression), first).ok());
  ASSERT_TRUE(codec.encode(testing::sample_event(EventKind::kImpression), second).ok());
  const DecodedToken a = codec.decode(first, testing::kIssuedAtS, storage);
  const DecodedToken again = codec.decode(first, testing::kIssuedAtS + 1, storage);
  const DecodedToken b = codec.decode(second, testing::kIssuedAtS, storage);
  ASSERT_TRUE(a.ok() && again.ok() && b.ok());
  EXPECT_EQ(a.token_id, again.token_id);
  EXPECT_NE(a.token_id, b.token_id);  // the same event, sealed twice: two tokens
}

// The id is persisted (event log, dedup snapshots), so it must be the same function in every
// process and build: XXH3-64, unseeded, of the token's first 26 bytes (key id and nonce).
TEST(TokenCodecIdentity, TheIdIsTheFrozenXxh3OfKeyIdAndNonce) {
  EXPECT_EQ(XXH3_64bits("", 0), 0x2d06800538d394c2u);  // xxHash's published value
  const KeyRing keys = testing::ring_of({1});
  TokenCodec codec(keys);
  std::string token, raw, storage;
  ASSERT_TRUE(codec.encode(testing::sample_event(EventKind::kImpression), token).ok());
  ASSERT_TRUE(base64url_decode(token, raw));
  const DecodedToken decoded = codec.decode(token, testing::kIssuedAtS, storage);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded.token_id, XXH3_64bits(raw.data(), TokenCodec::kKeyIdBytes + TokenCodec::kNonceBytes));
}

TEST(TokenCodecIdentity, PlayerErrorTokensDecodeAsErrors) {
  const KeyRing keys = testing::ring_of({1});
  TokenCodec codec(keys);
  std::string token, storage;
  ASSERT_TRUE(codec.encode(testing::sample_event(EventKind::kError), token).ok());
  const DecodedToken decoded = codec.decode(token, testing::kIssuedAtS, storage);
  ASSERT_TRUE(decoded.ok()) << verdict_name(decoded.verdict);
  EXPECT_EQ(decoded.event.kind, EventKind::kError);
  EXPECT_EQ(event_name(decoded.event), "error");
  testing::expect_same_event(decoded.event, testing::sample_event(EventKind::kError));
}

TEST(TokenCodecIdentity, TokensOfKindsUnknownToThisBuildDecode) {
  const KeyRing keys = testing::ring_of({1});
  TokenCodec codec(keys);
  for (const int kind : {0, 7, 77, 255}) {
    TrackingEvent future = testing::sample_event(EventKind::kImpression);
    future.kind = static_cast<EventKind>(kind);
    future.extra = "opaque";
    future.user_id = "user-4711";
    std::string token, storage;
    ASSERT_TRUE(codec.encode_any_kind(future, token).ok());
    const DecodedToken decoded = codec.decode(token, testing::kIssuedAtS, storage);
    ASSERT_TRUE(decoded.ok()) << verdict_name(decoded.verdict);
    EXPECT_EQ(static_cast<int>(decoded.event.kind), kind);
    EXPECT_EQ(event_name(decoded.event), "unknown");
    testing::expect_same_event(decoded.event, future);
  }
}

}  // namespace
}  // namespace tracking
