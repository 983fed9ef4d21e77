#pragma once
// Public identifiers of the response: "<kind>_<catalog id>" (docs/decision-response.md, "Body").
// The request side parses the same forms (decision/request/public_id.h).
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "http/json_writer.h"

namespace decision::response {

inline constexpr std::string_view kAdvertiserPrefix = "advertiser_";
inline constexpr std::string_view kAdPrefix = "ad_";
inline constexpr std::string_view kCreativePrefix = "creative_";
inline constexpr std::string_view kPlacementPrefix = "placement_";
inline constexpr std::string_view kTemplatePrefix = "template_";

// Writes "<prefix><id>" as a string value; prefixes are plain ASCII, digits need no escape.
inline void write_public_id(http::JsonWriter& json, std::string_view prefix, uint64_t id) {
  std::string& out = json.begin_verbatim_string();
  out.append(prefix);
  char digits[20];
  const auto end = std::to_chars(digits, digits + sizeof(digits), id).ptr;
  out.append(digits, end);
  json.end_verbatim_string();
}

}  // namespace decision::response
