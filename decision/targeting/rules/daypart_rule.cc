#include "decision/targeting/rules/daypart_rule.h"

#include <optional>

#include "absl/time/civil_time.h"

namespace decision::targeting {

LocalWeekMinute local_week_minute(absl::Time now, const absl::TimeZone& zone) {
  const absl::CivilMinute local = absl::ToCivilMinute(now, zone);
  LocalWeekMinute out;
  out.weekday_from_monday = static_cast<int>(absl::GetWeekday(absl::CivilDay(local)));
  out.minute_of_day = local.hour() * 60 + local.minute();
  return out;
}

bool dayparts_hold(std::span<const catalog::Daypart> dayparts, absl::Time now,
                   const absl::TimeZone& user_zone) {
  // The user's clock is read once, and only if some daypart uses it.
  std::optional<LocalWeekMinute> user_clock;
  for (const catalog::Daypart& daypart : dayparts) {
    LocalWeekMinute clock;
    if (daypart.has_time_zone()) {
      clock = local_week_minute(now, daypart.time_zone);
    } else {
      if (!user_clock) user_clock = local_week_minute(now, user_zone);
      clock = *user_clock;
    }
    if (daypart.contains(clock.weekday_from_monday, clock.minute_of_day)) return true;
  }
  return false;
}

}  // namespace decision::targeting
