#pragma once
// Sample tracking events and a field-by-field comparison.
#include <gtest/gtest.h>

#include <vector>

#include "tracking/tokens/tracking_event.h"

namespace tracking::testing {

inline constexpr int64_t kIssuedAtS = 1'763'683'200;  // 2025-11-21T00:00:00Z
inline constexpr int64_t kTtlS = 3600;

inline TrackingEvent sample_event(EventKind kind) {
  TrackingEvent event;
  event.kind = kind;
  event.ad_id = 1001;
  event.creative_id = 2002;
  event.placement_id = 7;
  for (size_t i = 0; i < event.request_id.size(); ++i) {
    event.request_id[i] = static_cast<uint8_t>(0xa0 + i);
  }
  event.issued_at_s = kIssuedAtS;
  event.expires_at_s = kIssuedAtS + kTtlS;
  if (kind == EventKind::kClick) event.click_url = "https://acme.example.com/lisbon?a=1&b=2";
  if (kind == EventKind::kCustom) event.custom_name = "add_to_cart";
  return event;
}

inline TrackingEvent video_event(VideoMilestone milestone) {
  TrackingEvent event = sample_event(EventKind::kVideo);
  event.milestone = milestone;
  return event;
}

// One event of each kind: impression, click with and without URL, custom, each milestone.
inline std::vector<TrackingEvent> every_kind_of_event() {
  std::vector<TrackingEvent> events = {sample_event(EventKind::kImpression),
                                       sample_event(EventKind::kClick),
                                       sample_event(EventKind::kCustom),
                                       sample_event(EventKind::kError),
                                       sample_event(EventKind::kVerificationNotExecuted)};
  TrackingEvent click_without_url = sample_event(EventKind::kClick);
  click_without_url.click_url = {};
  events.push_back(click_without_url);
  for (VideoMilestone milestone :
       {VideoMilestone::kStart, VideoMilestone::kFirstQuartile, VideoMilestone::kMidpoint,
        VideoMilestone::kThirdQuartile, VideoMilestone::kComplete, VideoMilestone::kSkip}) {
    events.push_back(video_event(milestone));
  }
  return events;
}

inline void expect_same_event(const TrackingEvent& actual, const TrackingEvent& expected) {
  EXPECT_EQ(actual.kind, expected.kind);
  EXPECT_EQ(actual.custom_name, expected.custom_name);
  if (expected.kind == EventKind::kVideo) {
    EXPECT_EQ(actual.milestone, expected.milestone);
  }
  EXPECT_EQ(actual.ad_id, expected.ad_id);
  EXPECT_EQ(actual.creative_id, expected.creative_id);
  EXPECT_EQ(actual.placement_id, expected.placement_id);
  EXPECT_EQ(actual.request_id, expected.request_id);
  EXPECT_EQ(actual.user_id, expected.user_id);
  EXPECT_EQ(actual.issued_at_s, expected.issued_at_s);
  EXPECT_EQ(actual.expires_at_s, expected.expires_at_s);
  EXPECT_EQ(actual.click_url, expected.click_url);
  EXPECT_EQ(event_name(actual), event_name(expected));
}

}  // namespace tracking::testing
