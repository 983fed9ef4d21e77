// A codec's nonces: its own random prefix, a count that never repeats under it, and a new
// prefix (and subkey) if the count is ever used up (docs/tokens.md).
#include "tracking/tokens/nonce_sequence.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/unit/tracking/test_events.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/tokens/base64url.h"
#include "tracking/tokens/token_codec.h"

namespace tracking {
namespace {

using Nonce = std::array<uint8_t, kXaesNonceBytes>;

uint64_t count_of(const Nonce& nonce) {
  uint64_t count = 0;
  for (size_t i = 16; i < 24; ++i) count = (count << 8) | nonce[i];
  return count;
}

TEST(NonceSequence, CountsFromZeroUnderItsPrefixWithFourZeroBytesBetween) {
  NonceSequence nonces;
  Nonce nonce;
  for (uint64_t expected = 0; expected < 300; ++expected) {
    ASSERT_FALSE(nonces.next(nonce));
    EXPECT_TRUE(std::equal(nonces.prefix().begin(), nonces.prefix().end(), nonce.begin()));
    EXPECT_EQ(nonce[12] | nonce[13] | nonce[14] | nonce[15], 0);
    EXPECT_EQ(count_of(nonce), expected);
  }
}

TEST(NonceSequence, EverySequenceDrawsItsOwnPrefix) {
  EXPECT_NE(NonceSequence().prefix(), NonceSequence().prefix());
}

TEST(NonceSequence, AfterTheLastCountItDrawsANewPrefixAndStartsAgain) {
  NonceSequence nonces(NonceSequence::kLastCount - 1);
  const NoncePrefix first = nonces.prefix();
  Nonce nonce;
  ASSERT_FALSE(nonces.next(nonce));
  EXPECT_EQ(count_of(nonce), NonceSequence::kLastCount - 1);
  ASSERT_FALSE(nonces.next(nonce));
  EXPECT_EQ(count_of(nonce), NonceSequence::kLastCount);
  EXPECT_EQ(nonces.prefix(), first);

  ASSERT_TRUE(nonces.next(nonce));  // the caller must derive a new subkey
  EXPECT_NE(nonces.prefix(), first);
  EXPECT_TRUE(std::equal(nonces.prefix().begin(), nonces.prefix().end(), nonce.begin()));
  EXPECT_EQ(count_of(nonce), 0u);
  ASSERT_FALSE(nonces.next(nonce));
  EXPECT_EQ(count_of(nonce), 1u);
}

TEST(NonceSequence, AMovedFromSequenceNeverRepeatsTheNoncesOfItsSuccessor) {
  NonceSequence source;
  Nonce before, taken, again;
  ASSERT_FALSE(source.next(before));
  NonceSequence successor(std::move(source));
  ASSERT_FALSE(successor.next(taken));
  EXPECT_EQ(count_of(taken), 1u);
  EXPECT_TRUE(source.next(again));  // NOLINT(bugprone-use-after-move): the rule under test
  EXPECT_NE(source.prefix(), successor.prefix());
}

std::string prefix_of(const std::string& token) {
  std::string raw;
  EXPECT_TRUE(base64url_decode(token, raw));
  return raw.substr(TokenCodec::kKeyIdBytes, kXaesPrefixBytes);
}

TEST(NonceSequence, ACodecThatUsesUpItsCountReKeysAndItsTokensStillOpen) {
  const KeyRing keys = testing::ring_of({1});
  TokenCodec sealer(keys, NonceSequence(NonceSequence::kLastCount));
  TokenCodec opener(keys);
  std::string last, first_of_new_prefix, storage;
  ASSERT_TRUE(sealer.encode(testing::sample_event(EventKind::kImpression), last).ok());
  ASSERT_TRUE(sealer.encode(testing::sample_event(EventKind::kClick), first_of_new_prefix).ok());
  EXPECT_NE(prefix_of(last), prefix_of(first_of_new_prefix));

  DecodedToken decoded = opener.decode(last, testing::kIssuedAtS, storage);
  ASSERT_TRUE(decoded.ok()) << verdict_name(decoded.verdict);
  decoded = opener.decode(first_of_new_prefix, testing::kIssuedAtS, storage);
  ASSERT_TRUE(decoded.ok()) << verdict_name(decoded.verdict);  // sealed under the new subkey
  testing::expect_same_event(decoded.event, testing::sample_event(EventKind::kClick));
}

}  // namespace
}  // namespace tracking
