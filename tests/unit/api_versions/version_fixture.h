#pragma once
// Tables for the tests: a lifecycle with every date announced, built from JSON as an
// operator's --versions file would be.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "api_versions/calendar_day.h"
#include "api_versions/version_table.h"

namespace api_versions::testing {

// 2025-01-01: maintenance 2026-01-01, deprecated 2026-04-01, sunset 2026-07-01, with a
// migration guide. 2025-11-01: active, nothing announced.
inline constexpr std::string_view kScheduledTable = R"([
  {"version": "2025-01-01", "release": "2025-01-01", "maintenance": "2026-01-01",
   "deprecated": "2026-04-01", "sunset": "2026-07-01",
   "migrationGuide": "https://docs.example.com/migrate/2025-11-01"},
  {"version": "2025-11-01", "release": "2025-11-01"}
])";

inline VersionTable table_from(std::string_view json) {
  absl::StatusOr<VersionTable> table = VersionTable::parse(json);
  EXPECT_TRUE(table.ok()) << table.status();
  return table.ok() ? *std::move(table) : VersionTable::built_in();
}

inline absl::CivilDay day(std::string_view text) {
  const std::optional<absl::CivilDay> parsed = parse_day(text);
  EXPECT_TRUE(parsed.has_value()) << text;
  return parsed.value_or(absl::CivilDay());
}

}  // namespace api_versions::testing
