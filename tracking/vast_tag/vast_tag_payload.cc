#include "tracking/vast_tag/vast_tag_payload.h"

#include <cstring>
#include <limits>

namespace tracking {
namespace {
constexpr uint8_t kFlagUserId = 1;
}  // namespace

size_t write_vast_tag_payload(const VastTagPayload& payload,
                              std::span<uint8_t, kMaxVastTagPayloadBytes> out) {
  if (payload.issued_at_s < 0 || payload.language.size() > kMaxVastTagLanguageBytes ||
      (payload.user_id && payload.user_id->size() > kMaxUserIdBytes)) {
    return 0;
  }
  uint8_t* at = out.data();
  *at++ = kVastTagPayloadVersion;
  *at++ = payload.user_id ? kFlagUserId : 0;
  at = put_varint(at, payload.ad_id);
  at = put_varint(at, payload.creative_id);
  at = put_varint(at, payload.placement_id);
  std::memcpy(at, payload.request_id.data(), payload.request_id.size());
  at += payload.request_id.size();
  at = put_varint(at, static_cast<uint64_t>(payload.issued_at_s));
  at = put_bytes(put_varint(at, payload.language.size()), payload.language);
  if (payload.user_id) at = put_bytes(put_varint(at, payload.user_id->size()), *payload.user_id);
  return static_cast<size_t>(at - out.data());
}

bool read_vast_tag_payload(std::string_view bytes, VastTagPayload& payload) {
  payload = VastTagPayload{};
  BinaryReader reader(bytes);
  uint8_t version, flags;
  if (!reader.byte(version) || version != kVastTagPayloadVersion) return false;
  if (!reader.byte(flags) || (flags & ~kFlagUserId) != 0) return false;
  std::string_view request_id;
  uint64_t issued_at_s;
  if (!reader.varint(payload.ad_id) || !reader.varint(payload.creative_id) ||
      !reader.varint(payload.placement_id) || !reader.bytes(payload.request_id.size(), request_id) ||
      !reader.varint(issued_at_s) || issued_at_s > std::numeric_limits<int64_t>::max() ||
      !reader.sized_bytes(kMaxVastTagLanguageBytes, payload.language)) {
    return false;
  }
  std::memcpy(payload.request_id.data(), request_id.data(), request_id.size());
  payload.issued_at_s = static_cast<int64_t>(issued_at_s);
  if (flags & kFlagUserId) {
    std::string_view user_id;
    if (!reader.sized_bytes(kMaxUserIdBytes, user_id)) return false;
    payload.user_id = user_id;
  }
  return reader.at_end();
}

}  // namespace tracking
