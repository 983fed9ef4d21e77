// The lifecycle table (docs/versions-and-languages.md): built in, or loaded from --versions
// with every error reported by its JSON path.
#include "api_versions/version_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tests/unit/api_versions/version_fixture.h"

namespace api_versions {
namespace {

using testing::day;
using testing::kScheduledTable;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<std::string> errors_of(std::string_view json) {
  const absl::StatusOr<VersionTable> table = VersionTable::parse(json);
  if (table.ok()) return {};
  EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument);
  return absl::StrSplit(table.status().message(), '\n');
}

class TempFile {
 public:
  explicit TempFile(std::string_view text) {
    path_ = absl::StrCat(::testing::TempDir(), "versions-", getpid(), "-", counter_++, ".json");
    std::ofstream(path_) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  static inline int counter_ = 0;
  std::string path_;
};

TEST(VersionTable, BuiltInHasTheDocumentedTwoVersionsWithNothingAnnounced) {
  const VersionTable table = VersionTable::built_in();
  ASSERT_EQ(table.entries().size(), 2u);
  EXPECT_EQ(table.entries()[0].version_text, "2025-01-01");
  EXPECT_EQ(table.entries()[0].release, absl::CivilDay(2025, 1, 1));
  EXPECT_EQ(table.entries()[1].version_text, "2025-11-01");
  EXPECT_EQ(table.entries()[1].release, absl::CivilDay(2025, 11, 1));
  for (const VersionEntry& entry : table.entries()) {
    EXPECT_FALSE(entry.maintenance);
    EXPECT_FALSE(entry.deprecated);
    EXPECT_FALSE(entry.sunset);
    EXPECT_TRUE(entry.migration_guide.empty());
  }
}

TEST(VersionTable, LoadsAValidFile) {
  const TempFile file(kScheduledTable);
  const absl::StatusOr<VersionTable> table = VersionTable::load_file(file.path());
  ASSERT_TRUE(table.ok()) << table.status();
  ASSERT_EQ(table->entries().size(), 2u);
  const VersionEntry& first = table->entries()[0];
  EXPECT_EQ(first.version, day("2025-01-01"));
  EXPECT_EQ(first.release, day("2025-01-01"));
  EXPECT_EQ(first.maintenance, day("2026-01-01"));
  EXPECT_EQ(first.deprecated, day("2026-04-01"));
  EXPECT_EQ(first.sunset, day("2026-07-01"));
  EXPECT_EQ(first.migration_guide, "https://docs.example.com/migrate/2025-11-01");
  EXPECT_EQ(table->entries()[1].version_text, "2025-11-01");
  EXPECT_FALSE(table->entries()[1].sunset);
}

TEST(VersionTable, MissingFileIsNotFound) {
  const absl::StatusOr<VersionTable> table =
      VersionTable::load_file("/nonexistent/decisiond/versions.json");
  EXPECT_EQ(table.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(table.status().message(), HasSubstr("/nonexistent/decisiond/versions.json"));
}

TEST(VersionTable, EntriesAreSortedByVersionWhateverTheFileOrder) {
  const VersionTable table = testing::table_from(R"([
    {"version": "2026-05-01", "release": "2026-05-01"},
    {"version": "2025-01-01", "release": "2025-01-01"},
    {"version": "2025-11-01", "release": "2025-11-01"}])");
  ASSERT_EQ(table.entries().size(), 3u);
  EXPECT_EQ(table.entries()[0].version_text, "2025-01-01");
  EXPECT_EQ(table.entries()[1].version_text, "2025-11-01");
  EXPECT_EQ(table.entries()[2].version_text, "2026-05-01");
}

TEST(VersionTable, FindsOnlyListedVersions) {
  const VersionTable table = VersionTable::built_in();
  ASSERT_NE(table.find(day("2025-11-01")), nullptr);
  EXPECT_EQ(table.find(day("2025-11-01"))->version_text, "2025-11-01");
  EXPECT_EQ(table.find(day("2025-06-01")), nullptr);
  EXPECT_EQ(table.find(day("2030-01-01")), nullptr);
}

TEST(VersionTable, UnknownMembersAreIgnored) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "status": "Supported", "notes": {"a": [1, 2]}}])"),
              ElementsAre());
}

TEST(VersionTable, NullOptionalDatesMeanNotAnnounced) {
  const VersionTable table = testing::table_from(
      R"([{"version": "2025-01-01", "release": "2025-01-01", "maintenance": null,
           "deprecated": null, "sunset": null, "migrationGuide": null}])");
  EXPECT_FALSE(table.entries()[0].maintenance);
  EXPECT_FALSE(table.entries()[0].sunset);
  EXPECT_TRUE(table.entries()[0].migration_guide.empty());
}

TEST(VersionTable, InvalidJsonIsReportedAtTheRoot) {
  const std::vector<std::string> errors = errors_of(R"([{"version": )");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0], ::testing::StartsWith("$: not valid JSON"));
}

TEST(VersionTable, RootMustBeAnArray) {
  EXPECT_THAT(errors_of(R"({"version": "2025-01-01", "release": "2025-01-01"})"),
              ElementsAre("$: must be an array of versions"));
}

TEST(VersionTable, EmptyTableIsRefused) {
  EXPECT_THAT(errors_of("[]"), ElementsAre("$: must list at least one version"));
}

TEST(VersionTable, MoreThanTheBoundIsRefused) {
  std::string json = "[";
  for (int i = 0; i <= static_cast<int>(VersionTable::kMaxVersions); ++i) {
    const std::string version = day_text(absl::CivilDay(2025, 1, 1) + i);
    absl::StrAppend(&json, i == 0 ? "" : ",", R"({"version":")", version, R"(","release":")",
                    version, R"("})");
  }
  json += "]";
  EXPECT_THAT(errors_of(json), ElementsAre("$: more than 64 versions"));
}

TEST(VersionTable, ItemMustBeAnObject) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01"}, "2025-11-01"])"),
              ElementsAre("[1]: must be an object"));
}

TEST(VersionTable, VersionIsRequired) {
  EXPECT_THAT(errors_of(R"([{"release": "2025-01-01"}])"), ElementsAre("[0].version: required"));
}

TEST(VersionTable, ReleaseIsRequired) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01"}])"), ElementsAre("[0].release: required"));
}

TEST(VersionTable, MalformedDateIsReportedWithItsPath) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01"},
                            {"version": "2025-11-01", "release": "2025-11-01",
                             "sunset": "2027-5-01"}])"),
              ElementsAre("[1].sunset: must be YYYY-MM-DD"));
}

TEST(VersionTable, DateThatIsNotAStringIsMalformed) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "maintenance": 20260101}])"),
              ElementsAre("[0].maintenance: must be YYYY-MM-DD"));
}

TEST(VersionTable, ImpossibleCalendarDateIsMalformed) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "deprecated": "2026-02-30"}])"),
              ElementsAre("[0].deprecated: must be YYYY-MM-DD"));
}

TEST(VersionTable, MalformedVersionIsReportedWithItsPath) {
  EXPECT_THAT(errors_of(R"([{"version": "latest", "release": "2025-01-01"}])"),
              ElementsAre("[0].version: must be YYYY-MM-DD"));
}

TEST(VersionTable, SunsetBeforeDeprecatedIsRefused) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "maintenance": "2026-01-01", "deprecated": "2026-04-01",
                            "sunset": "2026-03-01"}])"),
              ElementsAre("[0]: sunset before deprecated"));
}

TEST(VersionTable, DeprecatedBeforeMaintenanceIsRefused) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "maintenance": "2026-01-01", "deprecated": "2025-12-01",
                            "sunset": "2026-07-01"}])"),
              ElementsAre("[0]: deprecated before maintenance"));
}

TEST(VersionTable, MaintenanceBeforeReleaseIsRefused) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "maintenance": "2024-12-31", "sunset": "2026-07-01"}])"),
              ElementsAre("[0]: maintenance before release"));
}

TEST(VersionTable, MaintenanceOrDeprecatedWithoutASunsetDateIsRefused) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01", "maintenance": "2026-01-01"},
                           {"version": "2025-06-01", "release": "2025-06-01", "deprecated": "2026-01-01",
                            "sunset": null},
                           {"version": "2025-11-01", "release": "2025-11-01", "sunset": "2027-01-01"}])"),
              ElementsAre("[0].sunset: required with maintenance or deprecated",
                          "[1].sunset: required with maintenance or deprecated"));
}

TEST(VersionTable, OrderIsCheckedAcrossDatesThatAreNotAnnounced) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "sunset": "2024-06-01"}])"),
              ElementsAre("[0]: sunset before release"));
}

TEST(VersionTable, EqualDatesAreInOrder) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "maintenance": "2026-01-01", "deprecated": "2026-01-01",
                            "sunset": "2026-01-01"}])"),
              ElementsAre());
}

TEST(VersionTable, DuplicateVersionIsRefused) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01"},
                            {"version": "2025-11-01", "release": "2025-11-01"},
                            {"version": "2025-01-01", "release": "2025-01-01"}])"),
              ElementsAre("[2].version: duplicate of [0]"));
}

TEST(VersionTable, MigrationGuideMustBeAnHttpUrl) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-01-01",
                            "migrationGuide": "docs/migrate"},
                           {"version": "2025-11-01", "release": "2025-11-01",
                            "migrationGuide": 7},
                           {"version": "2026-05-01", "release": "2026-05-01",
                            "migrationGuide": "https://"},
                           {"version": "2026-11-01", "release": "2026-11-01",
                            "migrationGuide": "https://docs.example.com/a b"}])"),
              ElementsAre("[0].migrationGuide: must be an http:// or https:// URL",
                          "[1].migrationGuide: must be an http:// or https:// URL",
                          "[2].migrationGuide: must be an http:// or https:// URL",
                          "[3].migrationGuide: must be an http:// or https:// URL"));
}

TEST(VersionTable, EveryErrorIsReportedTogether) {
  EXPECT_THAT(errors_of(R"([{"version": "2025-01-01", "release": "2025-13-01",
                            "maintenance": "2026-04-01", "deprecated": "2026-01-01",
                            "sunset": "2026-07-01"},
                           7,
                           {"release": "2025-11-01", "sunset": "soon"},
                           {"version": "2025-01-01", "release": "2025-01-01"}])"),
              ElementsAre("[0].release: must be YYYY-MM-DD",
                          "[0]: deprecated before maintenance",
                          "[1]: must be an object",
                          "[2].version: required",
                          "[2].sunset: must be YYYY-MM-DD",
                          "[3].version: duplicate of [0]"));
}

TEST(VersionTable, InvalidFileIsReportedByLoadFile) {
  const TempFile file(R"([{"version": "2025-01-01", "release": "2025-01-01", "sunset": "x"}])");
  const absl::StatusOr<VersionTable> table = VersionTable::load_file(file.path());
  EXPECT_EQ(table.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(table.status().message(), "[0].sunset: must be YYYY-MM-DD");
}

}  // namespace
}  // namespace api_versions
