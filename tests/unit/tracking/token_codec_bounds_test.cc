// Encode refuses what it cannot carry whole: over-long fields, fields of another kind, a
// token born expired. Refusal leaves the output as it was.
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/tracking/test_events.h"
#include "tests/unit/tracking/test_keys.h"
#include "tracking/tokens/token_codec.h"

namespace tracking {
namespace {

using testing::ring_of;
using testing::sample_event;

class TokenCodecBounds : public ::testing::Test {
 protected:
  // The status of encoding event; checks that a refusal appends nothing.
  absl::Status encode(const TrackingEvent& event) {
    std::string out = "kept";
    absl::Status status = codec_.encode(event, out);
    if (!status.ok()) {
      EXPECT_EQ(out, "kept");
    }
    return status;
  }

  KeyRing ring_ = ring_of({1});
  TokenCodec codec_{ring_};
};

TEST_F(TokenCodecBounds, UserIdUpTo256BytesIsCarriedLongerIsRefused) {
  TrackingEvent event = sample_event(EventKind::kImpression);
  const std::string longest(kMaxUserIdBytes, 'u');
  const std::string too_long(kMaxUserIdBytes + 1, 'u');
  event.user_id = longest;
  EXPECT_TRUE(encode(event).ok());
  event.user_id = too_long;
  const absl::Status refused = encode(event);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("user_id"), std::string_view::npos) << refused;
}

TEST_F(TokenCodecBounds, ClickUrlUpTo2048BytesIsCarriedLongerIsRefused) {
  TrackingEvent event = sample_event(EventKind::kClick);
  const std::string longest(kMaxClickUrlBytes, 'x');
  const std::string too_long(kMaxClickUrlBytes + 1, 'x');
  event.click_url = longest;
  EXPECT_TRUE(encode(event).ok());
  event.click_url = too_long;
  const absl::Status refused = encode(event);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("click_url"), std::string_view::npos) << refused;
}

TEST_F(TokenCodecBounds, CustomNameOf1To64BytesIsCarriedOthersAreRefused) {
  TrackingEvent event = sample_event(EventKind::kCustom);
  const std::string longest(kMaxEventNameBytes, 'n');
  const std::string too_long(kMaxEventNameBytes + 1, 'n');
  event.custom_name = longest;
  EXPECT_TRUE(encode(event).ok());
  event.custom_name = too_long;
  EXPECT_EQ(encode(event).code(), absl::StatusCode::kInvalidArgument);
  event.custom_name = "";
  EXPECT_EQ(encode(event).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TokenCodecBounds, LongestPossibleTokenRoundTrips) {
  TrackingEvent event = sample_event(EventKind::kClick);
  const std::string url(kMaxClickUrlBytes, 'x');
  const std::string user(kMaxUserIdBytes, 'u');
  event.click_url = url;
  event.user_id = user;
  event.ad_id = event.creative_id = event.placement_id = UINT64_MAX;
  event.issued_at_s = 0;
  event.expires_at_s = INT64_MAX;
  std::string token;
  ASSERT_TRUE(codec_.encode(event, token).ok());
  EXPECT_LE(token.size(), TokenCodec::kMaxTokenChars);
  std::string storage;
  const DecodedToken decoded = codec_.decode(token, 1, storage);
  ASSERT_TRUE(decoded.ok());
  testing::expect_same_event(decoded.event, event);
}

TEST_F(TokenCodecBounds, FieldsOfAnotherKindAreRefused) {
  TrackingEvent impression_with_url = sample_event(EventKind::kImpression);
  impression_with_url.click_url = "https://example.com/";
  EXPECT_EQ(encode(impression_with_url).code(), absl::StatusCode::kInvalidArgument);
  TrackingEvent click_with_name = sample_event(EventKind::kClick);
  click_with_name.custom_name = "add_to_cart";
  EXPECT_EQ(encode(click_with_name).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TokenCodecBounds, UnknownKindOrMilestoneIsRefused) {
  TrackingEvent event = sample_event(EventKind::kImpression);
  event.kind = static_cast<EventKind>(9);
  EXPECT_EQ(encode(event).code(), absl::StatusCode::kInvalidArgument);
  event = sample_event(EventKind::kVideo);
  event.milestone = static_cast<VideoMilestone>(0);
  EXPECT_EQ(encode(event).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TokenCodecBounds, ExpiryMustFollowIssueTime) {
  TrackingEvent event = sample_event(EventKind::kImpression);
  event.expires_at_s = event.issued_at_s;
  EXPECT_EQ(encode(event).code(), absl::StatusCode::kInvalidArgument);
  event.expires_at_s = event.issued_at_s - 1;
  EXPECT_EQ(encode(event).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(TokenCodecBounds, NegativeIssueTimeIsRefused) {
  TrackingEvent event = sample_event(EventKind::kImpression);
  event.issued_at_s = -1;
  EXPECT_EQ(encode(event).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tracking
