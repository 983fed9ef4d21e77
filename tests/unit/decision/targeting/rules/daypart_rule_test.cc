#include "decision/targeting/rules/daypart_rule.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/time/civil_time.h"

namespace decision::targeting {
namespace {

constexpr uint8_t kMon = 1 << 0, kFri = 1 << 4, kSat = 1 << 5, kSun = 1 << 6;

absl::TimeZone zone(const std::string& name) {
  absl::TimeZone tz;
  EXPECT_TRUE(absl::LoadTimeZone(name, &tz)) << name;
  return tz;
}

catalog::Daypart daypart(uint8_t days, int start_minute, int end_minute, const std::string& tz = "") {
  catalog::Daypart d;
  d.days = days;
  d.start_minute = static_cast<uint16_t>(start_minute);
  d.end_minute = static_cast<uint16_t>(end_minute);
  if (!tz.empty()) {
    d.time_zone_name = tz;
    d.time_zone = zone(tz);
  }
  return d;
}

absl::Time utc(int y, int mo, int d, int h, int mi, int s = 0) {
  return absl::FromCivil(absl::CivilSecond(y, mo, d, h, mi, s), absl::UTCTimeZone());
}

TEST(DaypartRule, StartIsInclusiveEndIsExclusive) {
  const std::vector<catalog::Daypart> morning = {daypart(catalog::kEveryDay, 7 * 60, 11 * 60)};
  const absl::TimeZone z = absl::UTCTimeZone();
  EXPECT_FALSE(dayparts_hold(morning, utc(2026, 11, 23, 6, 59, 59), z));
  EXPECT_TRUE(dayparts_hold(morning, utc(2026, 11, 23, 7, 0), z));
  EXPECT_TRUE(dayparts_hold(morning, utc(2026, 11, 23, 10, 59, 59), z));
  EXPECT_FALSE(dayparts_hold(morning, utc(2026, 11, 23, 11, 0), z));
}

TEST(DaypartRule, DaysAreTheLocalDays) {
  // Monday 2026-11-23, 00:30 in Paris is still Sunday 23:30 in UTC.
  const std::vector<catalog::Daypart> monday = {daypart(kMon, 0, 24 * 60)};
  const absl::Time t = utc(2026, 11, 22, 23, 30);
  EXPECT_TRUE(dayparts_hold(monday, t, zone("Europe/Paris")));
  EXPECT_FALSE(dayparts_hold(monday, t, absl::UTCTimeZone()));
}

TEST(DaypartRule, AWindowAcrossMidnightIsTwoDayparts) {
  // Friday 22:00 to Saturday 02:00, as the catalog stores it.
  const std::vector<catalog::Daypart> late = {daypart(kFri, 22 * 60, 24 * 60), daypart(kSat, 0, 2 * 60)};
  const absl::TimeZone z = absl::UTCTimeZone();
  EXPECT_FALSE(dayparts_hold(late, utc(2026, 11, 27, 21, 59), z));  // Friday
  EXPECT_TRUE(dayparts_hold(late, utc(2026, 11, 27, 23, 59), z));
  EXPECT_TRUE(dayparts_hold(late, utc(2026, 11, 28, 0, 0), z));     // Saturday
  EXPECT_TRUE(dayparts_hold(late, utc(2026, 11, 28, 1, 59), z));
  EXPECT_FALSE(dayparts_hold(late, utc(2026, 11, 28, 2, 0), z));
  EXPECT_FALSE(dayparts_hold(late, utc(2026, 11, 28, 23, 0), z));    // Saturday night
}

TEST(DaypartRule, TheSkippedHourOfSpringNeverHappens) {
  // Paris, Sunday 2026-03-29: 02:00 CET jumps to 03:00 CEST at 01:00 UTC.
  const std::vector<catalog::Daypart> skipped = {daypart(kSun, 2 * 60, 3 * 60)};
  const absl::TimeZone paris = zone("Europe/Paris");
  EXPECT_FALSE(dayparts_hold(skipped, utc(2026, 3, 29, 0, 59, 59), paris));  // 01:59:59 CET
  EXPECT_FALSE(dayparts_hold(skipped, utc(2026, 3, 29, 1, 0), paris));       // 03:00 CEST
}

TEST(DaypartRule, TheRepeatedHourOfAutumnHoldsInBothPasses) {
  // Paris, Sunday 2026-10-25: 03:00 CEST falls back to 02:00 CET at 01:00 UTC.
  const std::vector<catalog::Daypart> repeated = {daypart(kSun, 2 * 60, 3 * 60)};
  const absl::TimeZone paris = zone("Europe/Paris");
  EXPECT_TRUE(dayparts_hold(repeated, utc(2026, 10, 25, 0, 30), paris));   // 02:30 CEST
  EXPECT_TRUE(dayparts_hold(repeated, utc(2026, 10, 25, 1, 30), paris));   // 02:30 CET
  EXPECT_FALSE(dayparts_hold(repeated, utc(2026, 10, 25, 2, 0), paris));   // 03:00 CET
}

TEST(DaypartRule, ADaypartsOwnZoneWinsOverTheUsers) {
  const std::vector<catalog::Daypart> tokyo_evening = {daypart(catalog::kEveryDay, 18 * 60, 22 * 60, "Asia/Tokyo")};
  const absl::Time t = utc(2026, 11, 23, 10, 0);  // 19:00 in Tokyo, 11:00 in Paris
  EXPECT_TRUE(dayparts_hold(tokyo_evening, t, zone("Europe/Paris")));
  const std::vector<catalog::Daypart> user_evening = {daypart(catalog::kEveryDay, 18 * 60, 22 * 60)};
  EXPECT_FALSE(dayparts_hold(user_evening, t, zone("Europe/Paris")));
  EXPECT_TRUE(dayparts_hold(user_evening, t, zone("Asia/Tokyo")));
}

TEST(DaypartRule, KeptClocksReadEveryZoneAsAFreshReadingWould) {
  // More zones than LocalClocks keeps, each asked twice, in two orders.
  const std::vector<std::string> names = {"Asia/Tokyo", "Europe/Paris", "America/New_York", "UTC",
                                          "Asia/Kolkata", "Australia/Adelaide", "Pacific/Chatham",
                                          "America/St_Johns", "Asia/Kathmandu", "Europe/London"};
  const absl::Time t = utc(2026, 3, 29, 0, 45);  // Paris and London change clocks at 01:00 UTC
  LocalClocks clocks;
  clocks.reset(t, zone("Asia/Kathmandu"));
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string& name = pass == 0 ? names[i] : names[names.size() - 1 - i];
      const LocalWeekMinute kept = clocks.in(zone(name));
      const LocalWeekMinute fresh = local_week_minute(t, zone(name));
      EXPECT_EQ(kept.weekday_from_monday, fresh.weekday_from_monday) << name;
      EXPECT_EQ(kept.minute_of_day, fresh.minute_of_day) << name;
    }
  }
  EXPECT_EQ(clocks.user().minute_of_day, local_week_minute(t, zone("Asia/Kathmandu")).minute_of_day);
  clocks.reset(t + absl::Hours(1), zone("UTC"));  // a new moment forgets every reading
  EXPECT_EQ(clocks.in(zone("Asia/Tokyo")).minute_of_day, (9 + 1) * 60 + 45);
  EXPECT_EQ(clocks.user().minute_of_day, 60 + 45);
}

}  // namespace
}  // namespace decision::targeting
