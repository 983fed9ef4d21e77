#pragma once
// The small text formats a catalog uses, each parsed or checked by one pure function:
// RFC 3339 times, "HH:MM" daypart bounds, weekday names, skip offsets, language tags,
// URLs, MIME types, aspect ratios, IANA zone names. No JSON here, no error paths: the
// validators (validate_*.cc) say where.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "decision/catalog/model.h"

namespace decision::catalog {

// "2026-01-01T00:00:00Z", "2026-01-01T01:00:00.5+01:00": unix seconds, fraction dropped
// (floor). An offset (Z or +hh:mm) is required: a flight date has one meaning worldwide.
std::optional<int64_t> parse_rfc3339_s(std::string_view text);

// "08:00" -> 480; "00:00".."24:00" (24:00 is the end of the day).
std::optional<uint16_t> parse_clock_minute(std::string_view text);

// "mon".."sun", any case -> 0..6 (Monday = 0, as absl::Weekday).
std::optional<int> parse_weekday(std::string_view text);

// "HH:MM:SS" (minutes and seconds 00..59) or "<n>%" with an integer n in 0..100.
std::optional<SkipOffset> parse_skip_offset(std::string_view text);

// A BCP 47 tag ("en", "pt-BR", "zh-Hant-TW", "es-419", "en-US-x-twain"), case-normalised
// the BCP 47 way: language lower case, script title case, region upper case. The primary
// language is a 2- or 3-letter ISO 639 code; each further subtag 1..8 letters or digits.
// nullopt when the shape is wrong ("en_US", "English", "english!", "").
std::optional<std::string> normalize_language_tag(std::string_view text);

// An absolute http(s) URL with a host and no whitespace or control characters.
bool is_http_url(std::string_view text);

// "video/mp4": type/subtype, token characters only.
bool is_mime_type(std::string_view text);

// "16:9": two positive integers.
bool is_aspect_ratio(std::string_view text);

// Whether a media MIME type names an adaptive stream's manifest (HLS, DASH), which VAST
// delivers as "streaming"; case-insensitive.
bool is_streaming_media_type(std::string_view mime_type);

// The image MIME type of a URL's file extension (png, jpg, jpeg, gif, webp, svg, avif;
// case-insensitive, query and fragment ignored), or "image/*" when it has none of these.
std::string_view image_type_of_url(std::string_view url);

// The shape of an IANA name ("Europe/Paris", "UTC", "America/Argentina/Buenos_Aires"):
// checked before absl::LoadTimeZone so that a name is never a file path ("../x", "/etc").
bool is_iana_zone_name(std::string_view text);

// A custom event name: 1..kMaxCustomEventNameBytes of [A-Za-z0-9_.-], not a reserved
// tracking kind ("impression", "click").
bool is_custom_event_name(std::string_view text);

}  // namespace decision::catalog
