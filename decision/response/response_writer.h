#pragma once
// The body of a served decision (docs/decision-response.md, "Body"): one code path for every
// API version, which differ only in the VersionFeatures flags they set. Written straight
// into the reply buffer with http::JsonWriter: catalog text comes pre-escaped from
// CatalogText, tokens are sealed in place, nothing is built on the side.
//
//   {"success":true,"data":[{"placement":...,"creatives":[...]},...],"errors":null,
//    "warnings":null or [...]}
//
// A video creative (versions with the video feature) adds videoEvents, its metadata,
// `delivery` and `vast` (video_fields.h); in the VAST deliveries its tracking and
// verification resources live in the document, and the JSON arrays are empty.
//
// Warnings, in this order: 20002 (version in maintenance or deprecated), 20001 (no
// Accept-Language), 20005 (a declared robot: no creatives), then per placement in request
// order 20003 (unknown key) or 20004 (a creative had no content in any requested language).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "decision/catalog/snapshot.h"
#include "decision/localization/accept_language.h"
#include "decision/response/catalog_text.h"
#include "decision/response/tracking_links.h"
#include "decision/response/video_fields.h"
#include "decision/selection/ad_selector.h"
#include "api_versions/version_features.h"

namespace decision::response {

struct PlacementDecision {
  std::string_view key;                     // as the request named it
  std::optional<uint32_t> placement_index;  // nullopt: no such placement (warning 20003)
  std::span<const selection::Pick> picks;
};

// Where the agent of a declared robot's request was read (warning 20005's details).
enum class RobotAgent : uint8_t { kNone, kDeviceUa, kUserAgentHeader };

struct ResponseInput {
  const catalog::CatalogSnapshot& snapshot;
  const CatalogText& text;
  const api_versions::VersionFeatures& features;
  const localization::LanguagePreferences& languages;
  std::string_view version_warning;  // warning 20002 (JSON item), empty when none
  std::span<const PlacementDecision> placements;
  tracking::TokenIssue tracking;
  RobotAgent robot = RobotAgent::kNone;  // warning 20005 unless kNone
};

// What a written body contained, for metrics.
struct WriteOutcome {
  uint32_t language_fallbacks = 0;  // placements with warning 20004
};

class ResponseWriter {
 public:
  ResponseWriter(TrackingLinks& links, VideoFields& video) : links_(links), video_(video) {}

  // Appends the body to out. False when a tracking token could not be sealed; out then
  // holds a partial body to be discarded.
  bool write(const ResponseInput& input, std::string& out, WriteOutcome& outcome);

 private:
  // Writes one creative; sets *fell_back when its content is in the default language
  // because none of the requested ones was available.
  bool write_creative(http::JsonWriter& json, const ResponseInput& input, uint32_t placement_index,
                      const selection::Pick& pick, bool* fell_back);

  TrackingLinks& links_;
  VideoFields& video_;
};

}  // namespace decision::response
