#pragma once
// What each API version serves, as data: handlers read a flag, they never compare version
// dates (STYLE: "one path for one behaviour"). A new version that changes behaviour adds a
// row here and a flag where the behaviour lives.
#include "absl/time/civil_time.h"

namespace api_versions {

struct VersionFeatures {
  bool format_filter = false;          // request `format` honoured (2025-01-01: native only)
  bool video = false;                  // video ads, `delivery`, `vast`, tracking.videoEvents
  bool verification = false;           // verification resources in creatives
  bool destination_targeting = false;  // request `destination` read (ads with the rule need it)
  bool template_in_response = false;   // template object in the response shape
};

inline constexpr VersionFeatures kFeatures20250101{};
inline constexpr VersionFeatures kFeatures20251101{
    .format_filter = true,
    .video = true,
    .verification = true,
    .destination_targeting = true,
    .template_in_response = true,
};

// The features of a version: those of the newest built-in version at or below it, so a
// version an operator adds with --versions (say 2026-05-01) serves what the code knows of
// its predecessor. Below the oldest built-in version: the oldest's features.
VersionFeatures features_of(absl::CivilDay version);

}  // namespace api_versions
