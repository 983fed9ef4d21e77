#include "tracking/tokens/token_payload.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "tracking/tokens/binary_fields.h"

namespace tracking {
namespace {

constexpr uint8_t kFlagUserId = 1;

// The kind's own bytes, as version 2 lays them out for every kind.
bool read_kind_fields(std::string_view bytes, TrackingEvent& event) {
  switch (event.kind) {
    case EventKind::kImpression:
    case EventKind::kError:
      return bytes.empty();
    case EventKind::kVerificationNotExecuted:
      event.vendor = bytes;
      return bytes.size() <= kMaxVendorBytes;
    case EventKind::kClick:
      event.click_url = bytes;
      return true;
    case EventKind::kCustom:
      event.custom_name = bytes;
      return !bytes.empty() && bytes.size() <= kMaxEventNameBytes;
    case EventKind::kVideo:
      if (bytes.size() != 1) return false;
      event.milestone = static_cast<VideoMilestone>(bytes[0]);
      return !milestone_name(event.milestone).empty();  // a known milestone
  }
  event.extra = bytes;  // a kind of a newer build: carried, not read
  return true;
}

std::string_view kind_bytes(const TrackingEvent& event, uint8_t& milestone) {
  switch (event.kind) {
    case EventKind::kClick: return event.click_url;
    case EventKind::kCustom: return event.custom_name;
    case EventKind::kVideo:
      milestone = static_cast<uint8_t>(event.milestone);
      return {reinterpret_cast<const char*>(&milestone), 1};
    case EventKind::kVerificationNotExecuted: return event.vendor;
    case EventKind::kImpression:
    case EventKind::kError:
      return {};
  }
  return event.extra;
}

size_t write_any(const TrackingEvent& event, std::span<uint8_t, kMaxPayloadBytes> out) {
  uint8_t* at = out.data();
  *at++ = kPayloadVersion;
  *at++ = static_cast<uint8_t>(event.kind);
  *at++ = event.user_id ? kFlagUserId : 0;
  uint8_t milestone = 0;
  const std::string_view own = kind_bytes(event, milestone);
  at = put_bytes(put_varint(at, own.size()), own);
  at = put_varint(at, event.ad_id);
  at = put_varint(at, event.creative_id);
  at = put_varint(at, event.placement_id);
  std::memcpy(at, event.request_id.data(), event.request_id.size());
  at += event.request_id.size();
  at = put_varint(at, static_cast<uint64_t>(event.issued_at_s));
  // The lifetime rather than the expiry: a few bytes instead of five.
  at = put_varint(at, static_cast<uint64_t>(event.expires_at_s - event.issued_at_s));
  if (event.user_id) at = put_bytes(put_varint(at, event.user_id->size()), *event.user_id);
  return static_cast<size_t>(at - out.data());
}

}  // namespace

absl::Status check_encodable(const TrackingEvent& event) {
  switch (event.kind) {
    case EventKind::kImpression:
    case EventKind::kClick:
    case EventKind::kError:
    case EventKind::kVerificationNotExecuted:
      break;
    case EventKind::kCustom:
      if (event.custom_name.empty() || event.custom_name.size() > kMaxEventNameBytes) {
        return absl::InvalidArgumentError(absl::StrCat("custom_name: must be 1..",
                                                       kMaxEventNameBytes, " bytes, got ",
                                                       event.custom_name.size()));
      }
      break;
    case EventKind::kVideo:
      if (milestone_name(event.milestone).empty()) {
        return absl::InvalidArgumentError(absl::StrCat(
            "milestone: unknown value ", static_cast<int>(event.milestone)));
      }
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("kind: unknown value ", static_cast<int>(event.kind)));
  }
  // Fields of other kinds are refused rather than dropped: setting a click URL on an
  // impression is a caller bug that would otherwise vanish silently.
  if (event.kind != EventKind::kCustom && !event.custom_name.empty()) {
    return absl::InvalidArgumentError("custom_name: only custom events carry a name");
  }
  if (event.kind != EventKind::kClick && !event.click_url.empty()) {
    return absl::InvalidArgumentError("click_url: only click events carry a URL");
  }
  if (event.kind != EventKind::kVerificationNotExecuted && !event.vendor.empty()) {
    return absl::InvalidArgumentError("vendor: only verification_not_executed events carry a vendor");
  }
  if (event.vendor.size() > kMaxVendorBytes) {
    return absl::InvalidArgumentError(absl::StrCat("vendor: more than ", kMaxVendorBytes,
                                                   " bytes (", event.vendor.size(), ")"));
  }
  if (!event.extra.empty()) return absl::InvalidArgumentError("extra: only kinds of other builds carry it");
  if (event.click_url.size() > kMaxClickUrlBytes) {
    return absl::InvalidArgumentError(absl::StrCat("click_url: more than ", kMaxClickUrlBytes,
                                                   " bytes (", event.click_url.size(), ")"));
  }
  if (event.user_id && event.user_id->size() > kMaxUserIdBytes) {
    return absl::InvalidArgumentError(absl::StrCat("user_id: more than ", kMaxUserIdBytes,
                                                   " bytes (", event.user_id->size(), ")"));
  }
  if (event.issued_at_s < 0) {
    return absl::InvalidArgumentError("issued_at_s: must not be negative");
  }
  if (event.expires_at_s <= event.issued_at_s) {
    return absl::InvalidArgumentError("expires_at_s: must be after issued_at_s");
  }
  return absl::OkStatus();
}

size_t write_payload(const TrackingEvent& event, std::span<uint8_t, kMaxPayloadBytes> out) {
  return write_any(event, out);
}

size_t write_payload_of_any_kind(const TrackingEvent& event, std::span<uint8_t, kMaxPayloadBytes> out) {
  if (is_known_kind(event.kind)) return check_encodable(event).ok() ? write_any(event, out) : 0;
  if (event.extra.size() > kMaxKindBytes || (event.user_id && event.user_id->size() > kMaxUserIdBytes) ||
      event.issued_at_s < 0 || event.expires_at_s <= event.issued_at_s) {
    return 0;
  }
  return write_any(event, out);
}

bool read_payload(std::string_view payload, TrackingEvent& event) {
  event = TrackingEvent{};
  BinaryReader reader(payload);
  uint8_t version, kind, flags;
  if (!reader.byte(version) || version != kPayloadVersion) return false;
  if (!reader.byte(kind) || !reader.byte(flags) || (flags & ~kFlagUserId) != 0) return false;
  event.kind = static_cast<EventKind>(kind);
  uint64_t own_length;
  std::string_view own;
  if (!reader.varint(own_length) || own_length > kMaxKindBytes || !reader.bytes(own_length, own) ||
      !read_kind_fields(own, event)) {
    return false;
  }

  std::string_view request_id;
  uint64_t issued_at_s, lifetime_s;
  if (!reader.varint(event.ad_id) || !reader.varint(event.creative_id) ||
      !reader.varint(event.placement_id) || !reader.bytes(event.request_id.size(), request_id) ||
      !reader.varint(issued_at_s) || !reader.varint(lifetime_s)) {
    return false;
  }
  constexpr uint64_t kMaxSeconds = std::numeric_limits<int64_t>::max();
  if (issued_at_s > kMaxSeconds || lifetime_s == 0 || lifetime_s > kMaxSeconds - issued_at_s) {
    return false;
  }
  std::memcpy(event.request_id.data(), request_id.data(), request_id.size());
  event.issued_at_s = static_cast<int64_t>(issued_at_s);
  event.expires_at_s = static_cast<int64_t>(issued_at_s + lifetime_s);

  if (flags & kFlagUserId) {
    uint64_t length;
    std::string_view user_id;
    if (!reader.varint(length) || length > kMaxUserIdBytes || !reader.bytes(length, user_id)) {
      return false;
    }
    event.user_id = user_id;
  }
  return reader.at_end();
}

}  // namespace tracking
