#pragma once
// The bodies the version check answers with (docs/versions-and-languages.md), written with
// http::JsonWriter in the error envelope (docs/errors.md). The resolver writes them once
// per day; the request path copies finished text.
#include <span>
#include <string>
#include <string_view>

#include "api_versions/phase.h"
#include "api_versions/sunset_notice.h"
#include "api_versions/version_table.h"

namespace api_versions {

// Codes from http/error_codes.h: kBadVersion, kSunsetVersion, kVersionDeprecated.
inline constexpr int kBadVersionStatus = 400;
inline constexpr int kSunsetVersionStatus = 410;

// 400 10042: malformed header, a range, `latest`, or a date that is no released version.
// details: {"active_versions": [...]}.
void append_bad_version_error(std::string& out, std::string_view header_name,
                              std::span<const std::string_view> active_versions);

// 410 10043: details {"deprecated_version", "active_versions", "migration_guide" (when the
// entry has one), "sunset_date"}. entry must have a sunset date.
void append_sunset_version_error(std::string& out, const VersionEntry& entry,
                                 std::span<const std::string_view> active_versions);

// Warning 20002, one item (not an envelope), for a version in maintenance or deprecated
// phase, or in any phase once a sunset notice is due (sunset_notice.h):
// {"code":20002,"message":...,"details":{"sunset_date" (when announced), "days_left" (the
// notice due: 90, 60, 30 or 7, when one is), "migration_guide" (when published)}}. Goes
// into `warnings` through JsonWriter::raw.
void append_version_warning(std::string& out, const VersionEntry& entry, Phase phase, SunsetNotice notice);

}  // namespace api_versions
