#pragma once
// The fixed material generated catalogs are made of: names, ad copy, GeoNames places, CEL
// expressions, cap shapes, video renditions. Realistic enough that a catalog reads like a
// real one, and mixed enough to exercise the loader: non-ASCII text, quotes and
// backslashes to escape, both spellings where the format accepts two.
#include <cstdint>
#include <span>
#include <string_view>

namespace tools::gen_catalog::vocabulary {

struct NamedTemplate {
  std::string_view key;
  std::string_view style;  // empty: left out, so the loader's "default" applies
};

struct Place {
  uint64_t geonames_id;
  std::string_view name;
  double lat;
  double lon;
};

struct CapShape {
  uint32_t impressions;
  uint32_t window_s;
};

struct Rendition {
  uint32_t width;
  uint32_t height;
  uint32_t bitrate_kbps;
  std::string_view mime_type;
  std::string_view extension;
};

// One language's ad copy. Entry i of offers, bodies and calls_to_action is the same
// message in every language, so a creative's translations agree.
inline constexpr size_t kMessages = 6;
struct AdCopy {
  std::string_view language;
  std::string_view offers[kMessages];
  std::string_view bodies[kMessages];
  std::string_view calls_to_action[kMessages];
};

// Includes non-ASCII names, one with double quotes and one with a backslash.
std::span<const std::string_view> advertiser_names();
std::span<const std::string_view> legal_forms();
std::span<const NamedTemplate> templates();
std::span<const std::string_view> ad_styles();
// The copy for a language, English for one without copy of its own.
const AdCopy& ad_copy(std::string_view language);

// GeoNames ids of countries and cities, for targeting.geo.
std::span<const uint64_t> geo_ids();
// Cities with coordinates, the centres of targeting.location circles.
std::span<const Place> cities();
// GeoNames ids of travel destinations, for targeting.destination.
std::span<const uint64_t> destination_ids();
// CEL over the request's targeting.custom map (docs/targeting.md, "Custom").
std::span<const std::string_view> custom_expressions();
std::span<const std::string_view> time_zones();

std::span<const CapShape> short_caps();  // windows of hours
std::span<const CapShape> long_caps();   // windows of days to a month
std::span<const std::string_view> custom_events();
std::span<const Rendition> renditions();
std::span<const uint32_t> video_durations_s();

}  // namespace tools::gen_catalog::vocabulary
