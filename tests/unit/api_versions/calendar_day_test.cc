// Days as the API spells them: exactly "YYYY-MM-DD", a real calendar date, UTC.
#include "api_versions/calendar_day.h"

#include <gtest/gtest.h>

namespace api_versions {
namespace {

TEST(CalendarDay, ParsesExactlyYyyyMmDd) {
  EXPECT_EQ(parse_day("2025-11-01"), absl::CivilDay(2025, 11, 1));
}

TEST(CalendarDay, RejectsDatesTheCalendarDoesNotHave) {
  EXPECT_FALSE(parse_day("2025-02-29"));
  EXPECT_FALSE(parse_day("2025-13-01"));
  EXPECT_FALSE(parse_day("2025-00-10"));
  EXPECT_FALSE(parse_day("2025-04-31"));
  EXPECT_EQ(parse_day("2024-02-29"), absl::CivilDay(2024, 2, 29));
}

TEST(CalendarDay, RejectsAnythingButTenCharacters) {
  EXPECT_FALSE(parse_day("2025-1-01"));
  EXPECT_FALSE(parse_day("2025-01-1"));
  EXPECT_FALSE(parse_day("20250101"));
  EXPECT_FALSE(parse_day("2025/01/01"));
  EXPECT_FALSE(parse_day("+025-01-01"));
  EXPECT_FALSE(parse_day("2025-01-01T00:00:00Z"));
}

TEST(CalendarDay, TextIsZeroPadded) {
  EXPECT_EQ(day_text(absl::CivilDay(2025, 1, 1)), "2025-01-01");
  EXPECT_EQ(day_text(absl::CivilDay(987, 6, 5)), "0987-06-05");
}

TEST(CalendarDay, UnixSecondsMapToTheUtcDay) {
  EXPECT_EQ(day_of_unix_seconds(0), absl::CivilDay(1970, 1, 1));
  EXPECT_EQ(day_of_unix_seconds(-1), absl::CivilDay(1969, 12, 31));
  EXPECT_EQ(day_of_unix_seconds(1'782'863'999), absl::CivilDay(2026, 6, 30));
  EXPECT_EQ(day_of_unix_seconds(1'782'864'000), absl::CivilDay(2026, 7, 1));
  EXPECT_EQ(unix_seconds_of_day(absl::CivilDay(2026, 7, 1)), 1'782'864'000);
}

}  // namespace
}  // namespace api_versions
