// The two versions differ by data: a feature row per version.
#include "api_versions/version_features.h"

#include <gtest/gtest.h>

#include "tests/unit/api_versions/version_fixture.h"

namespace api_versions {
namespace {

void expect_all(const VersionFeatures& f, bool on) {
  EXPECT_EQ(f.format_filter, on);
  EXPECT_EQ(f.video, on);
  EXPECT_EQ(f.verification, on);
  EXPECT_EQ(f.destination_targeting, on);
  EXPECT_EQ(f.template_in_response, on);
}

TEST(VersionFeatures, Version20250101IsNativeOnlyWithoutTheLaterChanges) {
  expect_all(features_of(absl::CivilDay(2025, 1, 1)), false);
}

TEST(VersionFeatures, Version20251101AddsVideoVerificationDestinationAndTemplate) {
  expect_all(features_of(absl::CivilDay(2025, 11, 1)), true);
}

TEST(VersionFeatures, LoadedVersionTakesTheNearestBuiltInAtOrBelowIt) {
  expect_all(features_of(absl::CivilDay(2025, 10, 31)), false);
  expect_all(features_of(absl::CivilDay(2026, 5, 1)), true);
}

TEST(VersionFeatures, VersionOlderThanEveryBuiltInTakesTheOldest) {
  expect_all(features_of(absl::CivilDay(2024, 1, 1)), false);
}

TEST(VersionFeatures, TableEntriesCarryTheirFeatures) {
  const VersionTable table = testing::table_from(R"([
    {"version": "2025-01-01", "release": "2025-01-01"},
    {"version": "2026-05-01", "release": "2026-05-01"}])");
  expect_all(table.entries()[0].features, false);
  expect_all(table.entries()[1].features, true);
  expect_all(VersionTable::built_in().entries()[1].features, true);
}

}  // namespace
}  // namespace api_versions
