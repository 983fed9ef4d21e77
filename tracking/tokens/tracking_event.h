#pragma once
// What a tracking token says (docs/tokens.md): which event, for which ad, creative and
// placement of which decision request, for whom, and until when.
//
// Strings are views, never owned. When encoding they point at the caller's data (the
// catalog snapshot, the request); when decoding they point into the storage buffer the
// caller handed to TokenCodec::decode, and live as long as it is left alone.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tracking {

// Bounds of the variable fields. Encode refuses longer input rather than truncating: a
// truncated click URL would redirect somewhere else, a truncated user id would count
// impressions against another user.
inline constexpr size_t kMaxUserIdBytes = 256;
inline constexpr size_t kMaxClickUrlBytes = 2048;
inline constexpr size_t kMaxEventNameBytes = 64;
inline constexpr size_t kMaxVendorBytes = 256;

// Wire values: they are written into tokens, so never renumber. An open set
// (docs/tracking.md, "Kinds"): a token may carry a value this build has no name for (minted
// by a newer build); it decodes, and is accepted and logged as "unknown".
enum class EventKind : uint8_t {
  kImpression = 1,
  kClick = 2,
  kCustom = 3,  // named by the creative's customEvents
  kVideo = 4,   // a video milestone
  kError = 5,   // a VAST player error; the code comes in the URL's `code` parameter
  kVerificationNotExecuted = 6,  // an Open Measurement verification that did not run
};

constexpr bool is_known_kind(EventKind kind) {
  return kind >= EventKind::kImpression && kind <= EventKind::kVerificationNotExecuted;
}

enum class VideoMilestone : uint8_t {
  kStart = 1,
  kFirstQuartile = 2,
  kMidpoint = 3,
  kThirdQuartile = 4,
  kComplete = 5,
  kSkip = 6,
};

using RequestId = std::array<uint8_t, 16>;

struct TrackingEvent {
  EventKind kind = EventKind::kImpression;
  std::string_view custom_name;                    // kCustom only: 1..kMaxEventNameBytes
  VideoMilestone milestone = VideoMilestone::kStart;  // kVideo only
  uint64_t ad_id = 0;
  uint64_t creative_id = 0;
  uint64_t placement_id = 0;
  RequestId request_id{};
  // Absent when there is no user id or GDPR forbids carrying it (docs/targeting.md, "GDPR").
  std::optional<std::string_view> user_id;
  int64_t issued_at_s = 0;   // Unix seconds
  int64_t expires_at_s = 0;  // Unix seconds; the token is expired when now_s >= expires_at_s
  std::string_view click_url;  // kClick only; empty when the creative has no click URL
  // kVerificationNotExecuted only: the Open Measurement vendor whose script did not run.
  std::string_view vendor;
  // Kinds this build does not know: their kind-specific bytes, carried but not read.
  std::string_view extra;
};

// The milestones' names as the API spells them in tracking.videoEvents (docs/video.md).
constexpr std::string_view milestone_name(VideoMilestone milestone) {
  switch (milestone) {
    case VideoMilestone::kStart: return "start";
    case VideoMilestone::kFirstQuartile: return "first_quartile";
    case VideoMilestone::kMidpoint: return "midpoint";
    case VideoMilestone::kThirdQuartile: return "third_quartile";
    case VideoMilestone::kComplete: return "complete";
    case VideoMilestone::kSkip: return "skip";
  }
  return {};
}

constexpr std::optional<VideoMilestone> milestone_from_name(std::string_view name) {
  for (uint8_t code = 1; code <= 6; ++code) {
    const auto milestone = static_cast<VideoMilestone>(code);
    if (milestone_name(milestone) == name) return milestone;
  }
  return std::nullopt;
}

// The event's key in the tracking arrays and the event log: "impression", "click", the
// custom event's name, or the milestone's name.
constexpr std::string_view event_name(const TrackingEvent& event) {
  switch (event.kind) {
    case EventKind::kImpression: return "impression";
    case EventKind::kClick: return "click";
    case EventKind::kCustom: return event.custom_name;
    case EventKind::kVideo: return milestone_name(event.milestone);
    case EventKind::kError: return "error";
    case EventKind::kVerificationNotExecuted: return "verification_not_executed";
  }
  return "unknown";
}

}  // namespace tracking
