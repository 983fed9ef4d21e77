// The query of GET /v1/tracking: t, and code for player errors (docs/tracking.md).
#include "tracking/endpoint/tracking_query.h"

#include "gtest/gtest.h"

namespace tracking::endpoint {
namespace {

TEST(TrackingQuery, TokenIsTheValueOfT) {
  EXPECT_EQ(parse_tracking_query("t=abc-_09").token, "abc-_09");
  EXPECT_EQ(parse_tracking_query("x=1&t=abc&y=2").token, "abc");
}

TEST(TrackingQuery, MissingTIsNoToken) {
  EXPECT_FALSE(parse_tracking_query("").token);
  EXPECT_FALSE(parse_tracking_query("tt=abc&code=405").token);
}

TEST(TrackingQuery, TGivenTwiceIsNoToken) {
  const TrackingQuery query = parse_tracking_query("t=abc&t=abc");
  EXPECT_FALSE(query.token);
  EXPECT_TRUE(query.token_repeated);
}

TEST(TrackingQuery, EmptyTIsAnEmptyToken) {
  // Present but empty: the codec refuses it as malformed (400 10050).
  EXPECT_EQ(parse_tracking_query("t=").token, "");
  EXPECT_EQ(parse_tracking_query("t").token, "");
}

TEST(TrackingQuery, CodeIsTheFirstCode) {
  EXPECT_EQ(parse_tracking_query("t=a&code=405&code=100").code, "405");
  EXPECT_FALSE(parse_tracking_query("t=a").code);
}

TEST(VastErrorCode, IntegersFrom100To999AreKept) {
  EXPECT_EQ(vast_error_code("100"), 100);
  EXPECT_EQ(vast_error_code("405"), 405);
  EXPECT_EQ(vast_error_code("999"), 999);
}

TEST(VastErrorCode, AnythingElseIsUndefinedError900) {
  for (const char* code : {"", "99", "1000", "0405", "[ERRORCODE]", "%5BERRORCODE%5D", "-10", "40a", "4 5"}) {
    EXPECT_EQ(vast_error_code(std::string_view(code)), 900) << code;
  }
  EXPECT_EQ(vast_error_code(std::nullopt), 900);
}

TEST(TrackingQuery, ReasonIsTheFirstReason) {
  EXPECT_EQ(parse_tracking_query("t=a&reason=2&reason=3").reason, "2");
  EXPECT_FALSE(parse_tracking_query("t=a&code=2").reason);
}

TEST(VerificationReason, IntegersFrom1To999AreKept) {
  EXPECT_EQ(verification_reason("1"), 1);
  EXPECT_EQ(verification_reason("3"), 3);
  EXPECT_EQ(verification_reason("999"), 999);
}

TEST(VerificationReason, AnythingElseIsNoReason) {
  for (const char* reason : {"", "0", "02", "1000", "[REASON]", "%5BREASON%5D", "-1", "2a"}) {
    EXPECT_EQ(verification_reason(std::string_view(reason)), std::nullopt) << reason;
  }
  EXPECT_EQ(verification_reason(std::nullopt), std::nullopt);
}

}  // namespace
}  // namespace tracking::endpoint
