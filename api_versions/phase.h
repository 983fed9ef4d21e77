#pragma once
// Where a version stands in its lifecycle on a given UTC day: a pure function of its dates.
// A phase starts on its date (on the sunset date the version is sunset). Before its release
// a version does not exist for clients yet: unknown to the resolver and absent from
// active_versions (active, maintenance, deprecated and sunset start at release; kUnreleased
// is the time before it, docs/versions-and-languages.md).
#include <cstdint>
#include <string_view>

#include "absl/time/civil_time.h"
#include "api_versions/version_table.h"

namespace api_versions {

enum class Phase : uint8_t { kUnreleased, kActive, kMaintenance, kDeprecated, kSunset };

inline Phase phase_at(const VersionEntry& entry, absl::CivilDay today) {
  if (entry.sunset && today >= *entry.sunset) return Phase::kSunset;
  if (entry.deprecated && today >= *entry.deprecated) return Phase::kDeprecated;
  if (entry.maintenance && today >= *entry.maintenance) return Phase::kMaintenance;
  if (today >= entry.release) return Phase::kActive;
  return Phase::kUnreleased;
}

// Served: the request goes on (with deprecation headers in maintenance and deprecated).
inline bool is_served(Phase phase) {
  return phase == Phase::kActive || phase == Phase::kMaintenance || phase == Phase::kDeprecated;
}

// Lower-case name of a phase, for logs and the admin plane.
inline std::string_view phase_name(Phase phase) {
  switch (phase) {
    case Phase::kUnreleased: return "unreleased";
    case Phase::kActive: return "active";
    case Phase::kMaintenance: return "maintenance";
    case Phase::kDeprecated: return "deprecated";
    case Phase::kSunset: return "sunset";
  }
  return "unknown";
}

}  // namespace api_versions
