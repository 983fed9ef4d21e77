#include "tracking/token_payload.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"

namespace tracking {
namespace {

constexpr uint8_t kFlagUserId = 1;

uint8_t* put_varint(uint8_t* at, uint64_t value) {
  while (value >= 0x80) {
    *at++ = static_cast<uint8_t>(value) | 0x80;
    value >>= 7;
  }
  *at++ = static_cast<uint8_t>(value);
  return at;
}

uint8_t* put_bytes(uint8_t* at, std::string_view bytes) {
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
  return at + bytes.size();
}

// A bounds-checked cursor: every read fails rather than run past the end.
class PayloadReader {
 public:
  explicit PayloadReader(std::string_view payload) : rest_(payload) {}

  bool byte(uint8_t& value) {
    if (rest_.empty()) return false;
    value = static_cast<uint8_t>(rest_.front());
    rest_.remove_prefix(1);
    return true;
  }

  // Minimal LEB128 of at most 64 bits: one spelling per value.
  bool varint(uint64_t& value) {
    value = 0;
    for (size_t i = 0; i < kMaxVarintBytes; ++i) {
      uint8_t b;
      if (!byte(b)) return false;
      if (i == kMaxVarintBytes - 1 && b > 1) return false;  // beyond 64 bits
      value |= uint64_t{b & 0x7fu} << (7 * i);
      if ((b & 0x80) == 0) return b != 0 || i == 0;  // a zero last byte is a padded spelling
    }
    return false;
  }

  bool bytes(size_t count, std::string_view& value) {
    if (count > rest_.size()) return false;
    value = rest_.substr(0, count);
    rest_.remove_prefix(count);
    return true;
  }

  bool at_end() const { return rest_.empty(); }

 private:
  std::string_view rest_;
};

bool read_kind_fields(PayloadReader& reader, TrackingEvent& event) {
  switch (event.kind) {
    case EventKind::kImpression:
      return true;
    case EventKind::kClick: {
      uint64_t length;
      return reader.varint(length) && length <= kMaxClickUrlBytes &&
             reader.bytes(length, event.click_url);
    }
    case EventKind::kCustom: {
      uint8_t length;
      return reader.byte(length) && length >= 1 && length <= kMaxEventNameBytes &&
             reader.bytes(length, event.custom_name);
    }
    case EventKind::kVideo: {
      uint8_t code;
      if (!reader.byte(code)) return false;
      event.milestone = static_cast<VideoMilestone>(code);
      return !milestone_name(event.milestone).empty();  // a known milestone
    }
  }
  return false;  // an unknown kind
}

}  // namespace

absl::Status check_encodable(const TrackingEvent& event) {
  switch (event.kind) {
    case EventKind::kImpression:
    case EventKind::kClick:
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
  uint8_t* at = out.data();
  *at++ = kPayloadVersion;
  *at++ = static_cast<uint8_t>(event.kind);
  *at++ = event.user_id ? kFlagUserId : 0;
  switch (event.kind) {
    case EventKind::kImpression:
      break;
    case EventKind::kClick:
      at = put_bytes(put_varint(at, event.click_url.size()), event.click_url);
      break;
    case EventKind::kCustom:
      *at++ = static_cast<uint8_t>(event.custom_name.size());
      at = put_bytes(at, event.custom_name);
      break;
    case EventKind::kVideo:
      *at++ = static_cast<uint8_t>(event.milestone);
      break;
  }
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

bool read_payload(std::string_view payload, TrackingEvent& event) {
  event = TrackingEvent{};
  PayloadReader reader(payload);
  uint8_t version, kind, flags;
  if (!reader.byte(version) || version != kPayloadVersion) return false;
  if (!reader.byte(kind) || !reader.byte(flags) || (flags & ~kFlagUserId) != 0) return false;
  event.kind = static_cast<EventKind>(kind);
  if (!read_kind_fields(reader, event)) return false;

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
