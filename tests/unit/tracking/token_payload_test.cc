// The binary payload inside a token (token_payload.h). Tokens are authenticated before this
// layer reads them, so these rules guard against our own bugs: one layout, read exactly.
#include "tracking/tokens/token_payload.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/unit/tracking/test_events.h"

namespace tracking {
namespace {

using testing::sample_event;

std::string payload_of(const TrackingEvent& event) {
  EXPECT_TRUE(check_encodable(event).ok());
  uint8_t buffer[kMaxPayloadBytes];
  const size_t size = write_payload(event, buffer);
  return std::string(reinterpret_cast<const char*>(buffer), size);
}

// An impression payload written by hand, ids given as raw varint bytes.
std::string impression_payload(std::string ad_id_varint) {
  std::string payload = {char{2}, char{1}, char{0}, char{0}};  // version, impression, no flags, no kind bytes
  payload += ad_id_varint;
  payload += std::string{char{2}, char{3}};            // creative 2, placement 3
  payload += std::string(16, 'r');                     // request id
  payload += std::string{char{0x64}, char{0x0a}};      // issued at 100 s, lifetime 10 s
  return payload;
}

TEST(TokenPayload, HandWrittenLayoutIsRead) {
  TrackingEvent event;
  ASSERT_TRUE(read_payload(impression_payload({char{1}}), event));
  EXPECT_EQ(event.kind, EventKind::kImpression);
  EXPECT_EQ(event.ad_id, 1u);
  EXPECT_EQ(event.creative_id, 2u);
  EXPECT_EQ(event.placement_id, 3u);
  EXPECT_EQ(event.issued_at_s, 100);
  EXPECT_EQ(event.expires_at_s, 110);
  EXPECT_FALSE(event.user_id.has_value());
}

TEST(TokenPayload, StartsWithTheVersionByte) {
  EXPECT_EQ(payload_of(sample_event(EventKind::kImpression))[0], char{kPayloadVersion});
}

TEST(TokenPayload, UnknownVersionIsRefused) {
  std::string payload = payload_of(sample_event(EventKind::kImpression));
  payload[0] = 3;
  TrackingEvent event;
  EXPECT_FALSE(read_payload(payload, event));
  payload[0] = 1;  // the layout before kinds became an open set
  EXPECT_FALSE(read_payload(payload, event));
}

TEST(TokenPayload, TrailingBytesAreRefused) {
  TrackingEvent event;
  EXPECT_FALSE(read_payload(payload_of(sample_event(EventKind::kClick)) + "x", event));
}

TEST(TokenPayload, UnknownFlagBitsAreRefused) {
  std::string payload = payload_of(sample_event(EventKind::kImpression));
  payload[2] = 2;
  TrackingEvent event;
  EXPECT_FALSE(read_payload(payload, event));
}

TEST(TokenPayload, PaddedVarintIsRefused) {
  TrackingEvent event;
  EXPECT_TRUE(read_payload(impression_payload({'\x81', char{0x01}}), event));  // 129
  EXPECT_FALSE(read_payload(impression_payload({'\x81', char{0x00}}), event));  // 1, padded
}

TEST(TokenPayload, VarintBeyond64BitsIsRefused) {
  std::string too_big(9, char(0xff));
  too_big += char{0x02};
  TrackingEvent event;
  EXPECT_FALSE(read_payload(impression_payload(too_big), event));
  std::string max(9, char(0xff));
  max += char{0x01};
  ASSERT_TRUE(read_payload(impression_payload(max), event));
  EXPECT_EQ(event.ad_id, UINT64_MAX);
}

TEST(TokenPayload, ZeroLifetimeIsRefused) {
  std::string payload = impression_payload({char{1}});
  payload.back() = 0;
  TrackingEvent event;
  EXPECT_FALSE(read_payload(payload, event));
}

TEST(TokenPayload, EveryTruncationIsRefused) {
  TrackingEvent full = sample_event(EventKind::kClick);
  full.user_id = "user-4711";
  const std::string payload = payload_of(full);
  TrackingEvent event;
  for (size_t length = 0; length < payload.size(); ++length) {
    EXPECT_FALSE(read_payload(std::string_view(payload).substr(0, length), event)) << length;
  }
  EXPECT_TRUE(read_payload(payload, event));
}

TEST(TokenPayload, ImpressionWithUserIdFitsInAShortToken) {
  // Compactness is the point of the layout: about 40 bytes for a typical impression.
  TrackingEvent event = sample_event(EventKind::kImpression);
  event.user_id = "user-4711";
  EXPECT_LE(payload_of(event).size(), 45u);
}

}  // namespace
}  // namespace tracking

namespace tracking {
namespace {

TEST(TokenPayload, KindsOfNewerBuildsAreReadWithTheirBytesSkipped) {
  TrackingEvent future = testing::sample_event(EventKind::kImpression);
  future.kind = static_cast<EventKind>(42);
  future.extra = "whatever a newer build puts here";
  uint8_t buffer[kMaxPayloadBytes];
  const size_t size = write_payload_of_any_kind(future, buffer);
  ASSERT_GT(size, 0u);
  TrackingEvent read;
  ASSERT_TRUE(read_payload(std::string_view(reinterpret_cast<const char*>(buffer), size), read));
  EXPECT_EQ(static_cast<int>(read.kind), 42);
  EXPECT_EQ(event_name(read), "unknown");
  EXPECT_EQ(read.ad_id, future.ad_id);
  EXPECT_EQ(read.extra, future.extra);
}

TEST(TokenPayload, ErrorAndVerificationKindsRoundTripWithNoBytesOfTheirOwn) {
  for (EventKind kind : {EventKind::kError, EventKind::kVerificationNotExecuted}) {
    const TrackingEvent event = testing::sample_event(kind);
    ASSERT_TRUE(check_encodable(event).ok());
    uint8_t buffer[kMaxPayloadBytes];
    const size_t size = write_payload(event, buffer);
    TrackingEvent read;
    ASSERT_TRUE(read_payload(std::string_view(reinterpret_cast<const char*>(buffer), size), read));
    EXPECT_EQ(read.kind, kind);
    EXPECT_EQ(buffer[3], 0) << "no kind-specific bytes";
  }
}

TEST(TokenPayload, KnownKindWithBytesItDoesNotHaveIsRefused) {
  std::string payload = {char{2}, char{1}, char{0}, char{1}, 'x'};  // an impression with one byte
  payload += std::string{char{1}, char{2}, char{3}} + std::string(16, 'r') + std::string{char{0x64}, char{0x0a}};
  TrackingEvent event;
  EXPECT_FALSE(read_payload(payload, event));
}

}  // namespace
}  // namespace tracking
