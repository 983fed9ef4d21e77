#pragma once
// The plaintext inside a tracking token: a compact binary layout, so that tokens (and the
// URLs that carry them, several per creative) stay short.
//
// Version 1, in order:
//   u8 version (1) | u8 kind | u8 flags (bit 0: user id present; other bits zero)
//   custom: u8 name length (1..64), name | video: u8 milestone | click: varint length, URL
//   varint ad id | varint creative id | varint placement id | 16 bytes request id
//   varint issued_at_s | varint lifetime_s (expires_at_s - issued_at_s, >= 1)
//   if user id present: varint length (0..256), user id
// Varints are LEB128 and must be minimal. Nothing may follow. The layout is authenticated by
// GCM before it is parsed, so a parse failure means a bug or a stolen key, never a client.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "absl/status/status.h"
#include "tracking/tracking_event.h"

namespace tracking {

inline constexpr uint8_t kPayloadVersion = 1;
inline constexpr size_t kMaxVarintBytes = 10;
// The longest payload: a click with the longest URL and user id.
inline constexpr size_t kMaxPayloadBytes = 3 + (2 + kMaxClickUrlBytes) + 3 * kMaxVarintBytes +
                                           16 + 2 * kMaxVarintBytes + (2 + kMaxUserIdBytes);

// Whether event can be written: bounded lengths, the fields of its kind only, a positive
// lifetime. The message names the offending field.
absl::Status check_encodable(const TrackingEvent& event);

// Writes the payload of an event that passed check_encodable; returns its size.
// out holds at least kMaxPayloadBytes.
size_t write_payload(const TrackingEvent& event, std::span<uint8_t, kMaxPayloadBytes> out);

// Reads a version-1 payload into event, whose strings then point into payload.
// False if payload is not exactly a well-formed version-1 payload.
[[nodiscard]] bool read_payload(std::string_view payload, TrackingEvent& event);

}  // namespace tracking
