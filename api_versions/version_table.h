#pragma once
// The API version lifecycle table (docs/versions-and-languages.md): per version its release,
// maintenance, deprecated and sunset dates and a migration guide. Built in, or replaced as a
// whole by the operator's --versions file. Immutable once built.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/civil_time.h"
#include "api_versions/version_features.h"

namespace api_versions {

struct VersionEntry {
  absl::CivilDay version;
  std::string version_text;  // "YYYY-MM-DD", what headers and bodies carry
  absl::CivilDay release;
  // Not announced yet when absent. When present: release <= maintenance <= deprecated <= sunset.
  std::optional<absl::CivilDay> maintenance;
  std::optional<absl::CivilDay> deprecated;
  std::optional<absl::CivilDay> sunset;
  std::string migration_guide;  // URL; empty when none is published
  VersionFeatures features;
};

class VersionTable {
 public:
  // A bound on the file (docs/versions-and-languages.md), far above the two or three versions
  // a schedule keeps alive at a time.
  static constexpr size_t kMaxVersions = 64;

  // The built-in table (docs/versions-and-languages.md): 2025-01-01 and 2025-11-01, both
  // active, nothing announced.
  static VersionTable built_in();

  // The --versions file (docs/versions-and-languages.md):
  //   [{"version": "2025-01-01", "release": "2025-01-01", "maintenance": "2026-01-01",
  //     "deprecated": "2026-04-01", "sunset": "2026-07-01", "migrationGuide": "https://..."}]
  // `version` and `release` are required; the other members are optional (null = absent);
  // unknown members are ignored. On any error: InvalidArgument listing every error, one per
  // line, each "<JSON path>: <what is wrong>", e.g. "[1].sunset: must be YYYY-MM-DD".
  static absl::StatusOr<VersionTable> load_file(std::string_view path);
  static absl::StatusOr<VersionTable> parse(std::string_view json);

  // Ascending by version; never empty.
  std::span<const VersionEntry> entries() const { return entries_; }
  // The entry of that version; null when it is not in the table.
  const VersionEntry* find(absl::CivilDay version) const;

 private:
  explicit VersionTable(std::vector<VersionEntry> entries);

  std::vector<VersionEntry> entries_;
};

}  // namespace api_versions
