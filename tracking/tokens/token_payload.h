#pragma once
// The plaintext inside a tracking token: a compact binary layout, so that tokens (and the
// URLs that carry them, several per creative) stay short.
//
// Version 2, in order:
//   u8 version (2) | u8 kind | u8 flags (bit 0: user id present; other bits zero)
//   varint length (0..2048), the kind's own bytes: custom: the name (1..64 bytes); video:
//     u8 milestone; click: the URL; verification_not_executed: the vendor key (0..256
//     bytes); impression, error: none;
//     a kind this build does not know: whatever its build put there, skipped unread
//   varint ad id | varint creative id | varint placement id | 16 bytes request id
//   varint issued_at_s | varint lifetime_s (expires_at_s - issued_at_s, >= 1)
//   if user id present: varint length (0..256), user id
// Varints are LEB128 and must be minimal. Nothing may follow. Version 1 put the kind's
// bytes in a per-kind shape, so a kind it did not know could not be read; version 2 makes
// every kind readable (event kinds are an open set). The layout is authenticated by
// GCM before it is parsed, so a parse failure means a bug or a stolen key, never a client.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "absl/status/status.h"
#include "tracking/tokens/binary_fields.h"
#include "tracking/tokens/tracking_event.h"

namespace tracking {

inline constexpr uint8_t kPayloadVersion = 2;
// The longest payload: a click with the longest URL and user id.
inline constexpr size_t kMaxKindBytes = kMaxClickUrlBytes;  // the longest kind-specific field
inline constexpr size_t kMaxPayloadBytes = 3 + (2 + kMaxKindBytes) + 3 * kMaxVarintBytes +
                                           16 + 2 * kMaxVarintBytes + (2 + kMaxUserIdBytes);

// Whether event can be written: a kind this build knows, bounded lengths, the fields of its
// kind only, a positive lifetime. The message names the offending field.
absl::Status check_encodable(const TrackingEvent& event);

// Writes the payload of an event that passed check_encodable; returns its size.
// out holds at least kMaxPayloadBytes.
size_t write_payload(const TrackingEvent& event, std::span<uint8_t, kMaxPayloadBytes> out);

// Writes the payload of an event of a kind this build may not know, its kind-specific bytes
// taken from event.extra: how a newer build's tokens look to this one (tests, tools).
// Bounds as check_encodable's; returns 0 when they do not hold.
size_t write_payload_of_any_kind(const TrackingEvent& event, std::span<uint8_t, kMaxPayloadBytes> out);

// Reads a version-2 payload into event, whose strings then point into payload.
// False if payload is not exactly a well-formed version-2 payload.
[[nodiscard]] bool read_payload(std::string_view payload, TrackingEvent& event);

}  // namespace tracking
