// Values of the explain body as it spells them, shared by its parts.
#include <charconv>
#include <cmath>
#include <cstdio>

#include "absl/time/time.h"
#include "decision/explain/explanation_parts.h"
#include "decision/response/public_ids.h"

namespace decision::explain {

std::string utc_text(int64_t unix_s) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(unix_s), absl::UTCTimeZone());
}

std::string minute_text(int minute_of_day) {
  char text[8];
  std::snprintf(text, sizeof(text), "%02d:%02d", minute_of_day / 60, minute_of_day % 60);
  return text;
}

double km(double value) { return std::round(value * 1000.0) / 1000.0; }

void write_ad_id(JsonWriter& json, const catalog::CatalogSnapshot& snapshot, uint32_t ad_index) {
  response::write_public_id(json, response::kAdPrefix, snapshot.ads()[ad_index].id);
}

void write_ids(JsonWriter& json, std::span<const uint64_t> ids) {
  json.begin_array();
  for (uint64_t id : ids) json.number(id);
  json.end_array();
}

void write_optional_id(JsonWriter& json, uint64_t id) {
  if (id == 0) {
    json.null();
  } else {
    json.number(id);
  }
}

void write_optional_text(JsonWriter& json, std::string_view text) {
  if (text.empty()) {
    json.null();
  } else {
    json.string(text);
  }
}

void write_request_points(JsonWriter& json, std::span<const request::GeoPoint> points) {
  json.begin_array();
  for (const request::GeoPoint& point : points) {
    json.begin_object().literal_key("lat").number(point.lat_deg).literal_key("lon").number(point.lon_deg);
    json.literal_key("radiusKm").number(point.radius_km).end_object();
  }
  json.end_array();
}

std::string_view format_filter_name(catalog::FormatFilter filter) {
  switch (filter) {
    case catalog::FormatFilter::kNative: return "native";
    case catalog::FormatFilter::kVideo: return "video";
    case catalog::FormatFilter::kAny: return "any";
  }
  return "unknown";
}

std::string_view zone_source_name(targeting::ZoneSource source) {
  switch (source) {
    case targeting::ZoneSource::kUserTimezone: return "user.timezone";
    case targeting::ZoneSource::kGeoIp: return "geoip";
    case targeting::ZoneSource::kUtc: return "utc";
  }
  return "unknown";
}

std::string_view geo_source_name(GeoSource source) {
  switch (source) {
    case GeoSource::kRequest: return "request";
    case GeoSource::kGeoIp: return "geoip";
    case GeoSource::kNone: return "none";
  }
  return "unknown";
}

std::string_view consent_name(request::GdprConsent consent) {
  switch (consent) {
    case request::GdprConsent::kAbsent: return "absent";
    case request::GdprConsent::kGranted: return "granted";
    case request::GdprConsent::kRefused: return "refused";
    case request::GdprConsent::kConsentString: return "consent_string";
  }
  return "unknown";
}

std::string placement_path(size_t index, std::string_view suffix) {
  std::string out = "placements[";
  char digits[20];
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), index).ptr);
  out.push_back(']');
  out.append(suffix);
  return out;
}

}  // namespace decision::explain
