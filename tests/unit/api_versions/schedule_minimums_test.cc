// The minimum support durations, said at start when a --versions schedule falls
// short of them (docs/versions-and-languages.md).
#include "api_versions/schedule_minimums.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/api_versions/version_fixture.h"

namespace api_versions {
namespace {

using ::testing::ElementsAre;
using testing::table_from;

TEST(ScheduleMinimums, TheDocumentedTimelineFallsShortOfNothing) {
  // Release, 12 months both active, maintenance to 15, deprecated to 18 months: sunset.
  EXPECT_THAT(schedule_shortfalls(table_from(R"([
      {"version": "2025-01-01", "release": "2025-01-01", "maintenance": "2026-01-01",
       "deprecated": "2026-04-01", "sunset": "2026-07-01"},
      {"version": "2025-07-01", "release": "2025-07-01"}])")),
              ElementsAre());
  EXPECT_THAT(schedule_shortfalls(VersionTable::built_in()), ElementsAre());
}

TEST(ScheduleMinimums, ADeprecatedPhaseShorterThanThreeMonthsIsSaid) {
  EXPECT_THAT(schedule_shortfalls(table_from(R"([
      {"version": "2025-01-01", "release": "2025-01-01", "deprecated": "2026-05-01", "sunset": "2026-07-01"},
      {"version": "2025-02-01", "release": "2025-02-01", "sunset": "2027-01-01"}])")),
              ElementsAre("version 2025-01-01 is deprecated for 61 days before its sunset on 2026-07-01 "
                          "(the minimum is 3 months, docs/versions-and-languages.md)",
                          "version 2025-02-01 is deprecated for 0 days before its sunset on 2027-01-01 "
                          "(the minimum is 3 months, docs/versions-and-languages.md)"));
}

TEST(ScheduleMinimums, ParallelSupportShorterThanTwelveMonthsIsSaid) {
  EXPECT_THAT(schedule_shortfalls(table_from(R"([
      {"version": "2025-01-01", "release": "2025-01-01", "deprecated": "2026-01-01", "sunset": "2026-07-01"},
      {"version": "2025-11-01", "release": "2025-11-01"}])")),
              ElementsAre("version 2025-01-01 is sunset on 2026-07-01, 242 days after 2025-11-01 is released "
                          "(the minimum of parallel support is 12 months, docs/versions-and-languages.md)"));
}

TEST(ScheduleMinimums, MonthsAreCountedAsPeopleCountThem) {
  // Deprecated on 30 November, sunset 28 February: three months to the month's end.
  EXPECT_THAT(schedule_shortfalls(table_from(R"([
      {"version": "2025-01-01", "release": "2025-01-01", "deprecated": "2026-11-30", "sunset": "2027-02-28"}])")),
              ElementsAre());
  EXPECT_THAT(schedule_shortfalls(table_from(R"([
      {"version": "2025-01-01", "release": "2025-01-01", "deprecated": "2026-11-30", "sunset": "2027-02-27"}])")),
              ::testing::SizeIs(1));
}

}  // namespace
}  // namespace api_versions
