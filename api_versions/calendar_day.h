#pragma once
// Calendar days as the API spells them: exactly "YYYY-MM-DD", a real date of the proleptic
// Gregorian calendar, in UTC. Versions and lifecycle dates are days; a phase changes at
// 00:00:00 UTC of its date, the instant the Sunset header names.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/time/civil_time.h"

namespace api_versions {

inline constexpr size_t kDayTextLength = 10;  // "YYYY-MM-DD"

// Exactly ten characters "YYYY-MM-DD" naming a real date; nothing before, after or between
// ("2025-1-01", " 2025-01-01", "2025-02-30" are not days). Allocates nothing.
std::optional<absl::CivilDay> parse_day(std::string_view text);

// "YYYY-MM-DD" for years 0..9999.
std::string day_text(absl::CivilDay day);

// The UTC day holding a Unix time (seconds; negative times count back from 1970).
absl::CivilDay day_of_unix_seconds(int64_t unix_s);
// 00:00:00 UTC of day, in Unix seconds.
int64_t unix_seconds_of_day(absl::CivilDay day);

}  // namespace api_versions
