#pragma once
// The `d` of a signed VAST tag URL (docs/video.md) before it is sealed: which served ad
// the tag stands for (ad, creative, placement, the decision's request id and time), for
// whom, and in which of the creative's languages the decision chose its content, so the
// document fetched later says what the decision would have said.
//
//   u8 version (1) | u8 flags (bit 0: user id present; other bits zero)
//   varint ad id | varint creative id | varint placement id | 16 bytes request id
//   varint issued_at_s | varint length (0..35), language tag
//   if user id present: varint length (0..256), user id
//
// Varints are minimal LEB128 (binary_fields.h). The payload is sealed with the token key
// under its own domain (vast_tag_codec.h) so that `d` never shows the user id in clear.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "tracking/tokens/binary_fields.h"
#include "tracking/tokens/tracking_event.h"

namespace tracking {

inline constexpr uint8_t kVastTagPayloadVersion = 1;
inline constexpr size_t kMaxVastTagLanguageBytes = 35;  // a BCP 47 tag as the catalog bounds it
inline constexpr size_t kMaxVastTagPayloadBytes =
    2 + 3 * kMaxVarintBytes + 16 + kMaxVarintBytes + (1 + kMaxVastTagLanguageBytes) +
    (2 + kMaxUserIdBytes);

struct VastTagPayload {
  uint64_t ad_id = 0;
  uint64_t creative_id = 0;
  uint64_t placement_id = 0;
  RequestId request_id{};
  int64_t issued_at_s = 0;
  std::string_view language;               // empty: the catalog's default language
  std::optional<std::string_view> user_id;  // only when the user may be recognised
};

// Writes the payload; returns its size, or 0 when a field breaks its bound (a negative time,
// a language or user id too long).
size_t write_vast_tag_payload(const VastTagPayload& payload,
                              std::span<uint8_t, kMaxVastTagPayloadBytes> out);

// Reads exactly one well-formed payload into payload, whose strings then point into bytes.
[[nodiscard]] bool read_vast_tag_payload(std::string_view bytes, VastTagPayload& payload);

}  // namespace tracking
