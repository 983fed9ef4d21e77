#pragma once
// A decision request as read from the body of POST /v1/decision (docs/decision-request.md).
// Fixed capacities, no heap: one DecisionRequest per core, reused.
// Every string_view points into storage of the RequestReader that filled it (its padded
// copy of the body, or its parser's buffer of unescaped strings) and is valid until that
// reader's next read().
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "absl/time/time.h"

namespace decision::request {

// Bounds (docs/decision-request.md, "Bounds"). More placements is error 10010 (docs/errors.md);
// past the others is the error code of the section, at the path of the array.
inline constexpr size_t kMaxPlacements = 20;
inline constexpr uint32_t kCountMin = 1;
inline constexpr uint32_t kCountMax = 10;
inline constexpr uint32_t kCountDefault = 1;
inline constexpr size_t kMaxPlacementKeyBytes = 256;
inline constexpr size_t kMaxGeoIds = 64;            // per placement
inline constexpr size_t kMaxDestinationIds = 64;    // per placement
inline constexpr size_t kMaxLocationPoints = 16;    // per placement
inline constexpr size_t kMaxCustomKeys = 64;        // per placement
inline constexpr size_t kMaxCustomArrayItems = 128; // per placement, all arrays together
inline constexpr size_t kMaxUserIdBytes = 256;
inline constexpr size_t kMaxConsentStringBytes = 8 * 1024;
inline constexpr size_t kMaxTimeZoneNameBytes = 64;
// Nesting of arrays and objects anywhere in the body, ignored fields included (the root
// object is level 1). Deeper is 400 10001: RFC 8259 section 9 lets a parser bound it, and
// it bounds our recursion. Matches http::JsonWriter::kMaxDepth.
inline constexpr int kMaxJsonDepth = 64;

enum class AdFormat : uint8_t { kNative, kVideo };

struct GeoPoint {
  double lat_deg = 0;
  double lon_deg = 0;
  double radius_km = 0;
};

enum class CustomKind : uint8_t { kString, kNumber, kBool, kArray };

// How a kNumber literal is written: as an integer that fits int64, one that fits only
// uint64, or anything else (a fraction, an exponent, a larger integer). CEL's `custom`
// reads it as int, uint or double accordingly (3 is not 3.0 there).
enum class CustomNumber : uint8_t { kDouble, kInt, kUint };

// A value of targeting.custom, or an item of an array value (never kArray then).
struct CustomValue {
  CustomKind kind = CustomKind::kString;
  bool boolean = false;     // kBool
  CustomNumber number_kind = CustomNumber::kDouble;  // kNumber
  double number = 0;        // kNumber, always (the nearest double)
  int64_t int_number = 0;   // kNumber written as an int64
  uint64_t uint_number = 0; // kNumber written as an integer past INT64_MAX
  // kString: the unescaped string. kNumber: the literal as written (so a reader can tell
  // 3 from 3.0). kBool: "true" or "false". kArray: the array's raw JSON text.
  std::string_view text;
};

struct CustomEntry {
  std::string_view key;     // unescaped
  CustomValue value;
  uint16_t first_item = 0;  // kArray: items are Targeting::custom_items[first_item, +item_count)
  uint16_t item_count = 0;
};

struct Targeting {
  std::array<uint64_t, kMaxGeoIds> geo_ids{};
  uint32_t geo_count = 0;
  std::array<GeoPoint, kMaxLocationPoints> location_points{};
  uint32_t location_count = 0;
  // The raw JSON text of targeting.custom (empty when absent), and its members in document
  // order (a key given twice keeps its last value, in its first position).
  std::string_view custom_json;
  std::array<CustomEntry, kMaxCustomKeys> custom_entries{};
  uint32_t custom_count = 0;
  std::array<CustomValue, kMaxCustomArrayItems> custom_items{};
  uint32_t custom_item_count = 0;
  // Read only when ReadOptions::destination_understood (version 2025-11-01 on).
  std::array<uint64_t, kMaxDestinationIds> destination_ids{};
  uint32_t destination_count = 0;

  std::span<const uint64_t> geo() const { return {geo_ids.data(), geo_count}; }
  std::span<const GeoPoint> location() const { return {location_points.data(), location_count}; }
  std::span<const CustomEntry> custom() const { return {custom_entries.data(), custom_count}; }
  std::span<const CustomValue> items(const CustomEntry& entry) const {
    return {custom_items.data() + entry.first_item, entry.item_count};
  }
  std::span<const uint64_t> destination() const {
    return {destination_ids.data(), destination_count};
  }
  // Back to empty without touching the arrays (a reset per request stays cheap).
  void clear() {
    geo_count = location_count = custom_count = custom_item_count = destination_count = 0;
    custom_json = {};
  }
};

struct PlacementRequest {
  std::string_view key;                  // non-empty, unescaped
  uint32_t count = kCountDefault;        // kCountMin..kCountMax
  std::optional<uint64_t> advertiser_id; // from "advertiser_<id>"
  std::optional<uint64_t> template_id;   // from "template_<id>"
  std::optional<AdFormat> format;        // read only when ReadOptions::format_understood
  Targeting targeting;

  void clear() {
    key = {};
    count = kCountDefault;
    advertiser_id.reset();
    template_id.reset();
    format.reset();
    targeting.clear();
  }
};

struct IpAddress {
  enum class Family : uint8_t { kNone, kV4, kV6 };
  Family family = Family::kNone;
  // Network byte order; 4 bytes used for kV4, 16 for kV6 (an IPv4-mapped IPv6 literal such as
  // "::ffff:192.0.2.1" stays kV6, as written).
  std::array<uint8_t, 16> bytes{};
  std::string_view text;
};

enum class GdprConsent : uint8_t {
  kAbsent,         // no user.consent.gdpr (or null)
  kGranted,        // true
  kRefused,        // false
  kConsentString,  // a TCF v2 string (User::consent_string), decoded (tcf_consent.h)
};

struct User {
  std::optional<std::string_view> id;  // non-empty, at most kMaxUserIdBytes
  IpAddress ip;
  std::string_view timezone_name;      // empty when absent
  absl::TimeZone time_zone;           // loaded zone of timezone_name; UTC when absent
  GdprConsent gdpr = GdprConsent::kAbsent;
  std::string_view consent_string;     // kConsentString: the TC string as sent
  // kConsentString: whether the TC string consents to purpose 1 (store and/or access
  // information on a device), the consent docs/targeting.md ("GDPR") asks for. False otherwise.
  bool consent_string_purpose1 = false;

  void clear() { *this = User{}; }
};

struct DecisionRequest {
  std::array<PlacementRequest, kMaxPlacements> placement_slots{};
  uint32_t placement_count = 0;
  bool has_user = false;
  User user;
  std::string_view user_json;    // raw JSON object text; empty when absent
  std::string_view device_json;  // raw JSON object text; empty when absent
  std::string_view device_ua;    // device.ua when a string (unescaped); empty otherwise
  std::string_view app_json;     // raw JSON object text; empty when absent
  // Not from the body: the client's address as the transport found it (the TCP peer, a
  // trusted balancer's PROXY header or Forwarded: docs/client_address.md), text empty.
  // Family kNone when unknown.
  IpAddress client_ip;

  std::span<const PlacementRequest> placements() const {
    return {placement_slots.data(), placement_count};
  }
  // The address that places the user (geo, time zone, GDPR territory): user.ip when the
  // body gives one, else the client's.
  const IpAddress& placing_ip() const { return user.ip.family != IpAddress::Family::kNone ? user.ip : client_ip; }
  void clear() {
    placement_count = 0;
    has_user = false;
    user.clear();
    user_json = device_json = device_ua = app_json = {};
    client_ip = IpAddress{};
  }
};

}  // namespace decision::request
