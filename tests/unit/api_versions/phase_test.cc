// The phase of a version is a pure function of its dates and the UTC day; each phase
// starts on its own date.
#include "api_versions/phase.h"

#include <gtest/gtest.h>

#include "tests/unit/api_versions/version_fixture.h"

namespace api_versions {
namespace {

using testing::day;
using testing::kScheduledTable;
using testing::table_from;

class PhaseTest : public ::testing::Test {
 protected:
  Phase phase_on(std::string_view today) { return phase_at(table_.entries()[0], day(today)); }

  VersionTable table_ = table_from(kScheduledTable);
};

TEST_F(PhaseTest, ActiveFromReleaseToTheDayBeforeMaintenance) {
  EXPECT_EQ(phase_on("2025-01-01"), Phase::kActive);
  EXPECT_EQ(phase_on("2025-12-31"), Phase::kActive);
}

TEST_F(PhaseTest, MaintenanceStartsOnItsDate) {
  EXPECT_EQ(phase_on("2026-01-01"), Phase::kMaintenance);
  EXPECT_EQ(phase_on("2026-03-31"), Phase::kMaintenance);
}

TEST_F(PhaseTest, DeprecatedStartsOnItsDate) {
  EXPECT_EQ(phase_on("2026-04-01"), Phase::kDeprecated);
  EXPECT_EQ(phase_on("2026-06-30"), Phase::kDeprecated);
}

TEST_F(PhaseTest, SunsetStartsOnItsDateAndLasts) {
  EXPECT_EQ(phase_on("2026-07-01"), Phase::kSunset);
  EXPECT_EQ(phase_on("2030-01-01"), Phase::kSunset);
}

TEST_F(PhaseTest, BeforeReleaseAVersionIsUnreleased) {
  EXPECT_EQ(phase_on("2024-12-31"), Phase::kUnreleased);
}

TEST(Phase, WithoutAnnouncedDatesAVersionStaysActive) {
  const VersionTable table = VersionTable::built_in();
  for (const VersionEntry& entry : table.entries()) {
    EXPECT_EQ(phase_at(entry, absl::CivilDay(2099, 12, 31)), Phase::kActive);
  }
}

TEST(Phase, SunsetWithoutEarlierPhasesGoesStraightFromActive) {
  const VersionTable table = table_from(
      R"([{"version": "2025-01-01", "release": "2025-01-01", "sunset": "2027-01-01"}])");
  EXPECT_EQ(phase_at(table.entries()[0], absl::CivilDay(2026, 12, 31)), Phase::kActive);
  EXPECT_EQ(phase_at(table.entries()[0], absl::CivilDay(2027, 1, 1)), Phase::kSunset);
}

TEST(Phase, NamesAreLowerCase) {
  EXPECT_EQ(phase_name(Phase::kActive), "active");
  EXPECT_EQ(phase_name(Phase::kMaintenance), "maintenance");
  EXPECT_EQ(phase_name(Phase::kDeprecated), "deprecated");
  EXPECT_EQ(phase_name(Phase::kSunset), "sunset");
  EXPECT_EQ(phase_name(Phase::kUnreleased), "unreleased");
}

}  // namespace
}  // namespace api_versions
