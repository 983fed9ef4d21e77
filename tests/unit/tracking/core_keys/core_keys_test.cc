// A core's keys in force (tracking/core_keys/core_keys.h): adopting new codecs switches
// every seal and open at once, hands the previous codecs back, shows the new signing key in
// the core's gauges, and allocates nothing, nor do the first seals, opens and tag checks
// after it.
#include "tracking/core_keys/core_keys.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tests/support/allocation_count.h"
#include "tests/unit/tracking/test_events.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/tokens/base64url.h"

namespace tracking {
namespace {

using testing::kIssuedAtS;
using testing::ring_of;
using testing::sample_event;

constexpr int64_t kNowS = kIssuedAtS + 1;

// The key id a token carries in its first two bytes (docs/tokens.md).
int key_id_of(std::string_view token) {
  std::string bytes;
  if (!base64url_decode(token, bytes) || bytes.size() < 2) return -1;
  return (static_cast<uint8_t>(bytes[0]) << 8) | static_cast<uint8_t>(bytes[1]);
}

VastTagPayload sample_tag() {
  VastTagPayload payload;
  payload.ad_id = 1011;
  payload.creative_id = 2012;
  payload.placement_id = 9;
  payload.issued_at_s = kNowS;
  return payload;
}

class CoreKeysTest : public ::testing::Test {
 protected:
  std::string seal() {
    std::string token;
    EXPECT_TRUE(keys_.tokens().encode(sample_event(EventKind::kImpression), token).ok());
    return token;
  }
  TokenVerdict open(std::string_view token) {
    std::string storage;
    return keys_.tokens().decode(token, kNowS, storage).verdict;
  }
  std::string tag() {
    std::string query;
    EXPECT_TRUE(keys_.tags().append_query(sample_tag(), kNowS + 900, query).ok());
    return query;
  }

  CoreKeys keys_{ring_of({1})};
};

TEST_F(CoreKeysTest, TheFirstCodecsAreTheRingsAndTheGaugesSaySo) {
  EXPECT_EQ(key_id_of(seal()), 1);
  EXPECT_EQ(keys_.gauges().signing_key_id.get(), 1u);
  EXPECT_EQ(keys_.gauges().keys.get(), 1u);
}

TEST_F(CoreKeysTest, AdoptingANewRingSealsWithItsKeyAndOpensWhatTheOldOneSealed) {
  const std::string before = seal();
  const std::string tag_before = tag();
  std::unique_ptr<RingCodecs> previous = keys_.adopt(std::make_unique<RingCodecs>(ring_of({2, 1})));
  ASSERT_NE(previous, nullptr);
  EXPECT_EQ(previous->signing_key_id(), 1);
  EXPECT_EQ(key_id_of(seal()), 2);
  EXPECT_NE(tag().find("&kid=2&"), std::string::npos);
  EXPECT_EQ(open(before), TokenVerdict::kValid);
  EXPECT_EQ(keys_.tags().check(tag_before, kNowS).verdict, VastTagVerdict::kValid);
  EXPECT_EQ(keys_.gauges().signing_key_id.get(), 2u);
  EXPECT_EQ(keys_.gauges().keys.get(), 2u);
}

TEST_F(CoreKeysTest, WhatARetiredKeySealedNoLongerOpens) {
  const std::string before = seal();
  const std::string tag_before = tag();
  keys_.adopt(std::make_unique<RingCodecs>(ring_of({2})));
  EXPECT_EQ(open(before), TokenVerdict::kUnknownKey);
  const VastTagCheck check = keys_.tags().check(tag_before, kNowS);
  EXPECT_EQ(check.verdict, VastTagVerdict::kBadSignature);
  EXPECT_EQ(check.field, "kid");
  EXPECT_EQ(open(seal()), TokenVerdict::kValid);
}

TEST_F(CoreKeysTest, AdoptingAndTheFirstSealsOpensAndTagChecksAfterItAllocateNothing) {
  // Warm buffers of the callers' own, as the handlers keep them.
  std::string token, query, storage;
  token.reserve(TokenCodec::kMaxTokenChars);
  query.reserve(1024);
  storage.reserve(kMaxPayloadBytes);
  const TrackingEvent event = sample_event(EventKind::kImpression);
  std::unique_ptr<RingCodecs> next = std::make_unique<RingCodecs>(ring_of({2, 1}));
  std::unique_ptr<RingCodecs> previous;
  const uint64_t allocations = decision::testing::allocations_while([&] {
    previous = keys_.adopt(std::move(next));
    token.clear();
    ASSERT_TRUE(keys_.tokens().encode(event, token).ok());
    ASSERT_EQ(keys_.tokens().decode(token, kNowS, storage).verdict, TokenVerdict::kValid);
    query.clear();
    ASSERT_TRUE(keys_.tags().append_query(sample_tag(), kNowS + 900, query).ok());
    ASSERT_EQ(keys_.tags().check(query, kNowS).verdict, VastTagVerdict::kValid);
  });
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(key_id_of(token), 2);
}

}  // namespace
}  // namespace tracking
