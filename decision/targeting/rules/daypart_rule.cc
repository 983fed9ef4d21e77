#include "decision/targeting/rules/daypart_rule.h"

#include "absl/time/civil_time.h"

namespace decision::targeting {

LocalWeekMinute local_week_minute(absl::Time now, const absl::TimeZone& zone) {
  const absl::CivilMinute local = absl::ToCivilMinute(now, zone);
  LocalWeekMinute out;
  out.weekday_from_monday = static_cast<int>(absl::GetWeekday(absl::CivilDay(local)));
  out.minute_of_day = local.hour() * 60 + local.minute();
  return out;
}

void LocalClocks::reset(absl::Time now, const absl::TimeZone& user_zone) {
  now_ = now;
  user_zone_ = user_zone;
  user_.reset();
  zone_count_ = 0;
}

const LocalWeekMinute& LocalClocks::user() {
  if (!user_) user_ = local_week_minute(now_, user_zone_);
  return *user_;
}

LocalWeekMinute LocalClocks::in(const absl::TimeZone& zone) {
  for (size_t i = 0; i < zone_count_; ++i) {
    if (zones_[i].first == zone) return zones_[i].second;
  }
  const LocalWeekMinute clock = local_week_minute(now_, zone);
  if (zone_count_ < kZonesKept) zones_[zone_count_++] = {zone, clock};
  return clock;
}

bool dayparts_hold(std::span<const catalog::Daypart> dayparts, LocalClocks& clocks) {
  for (const catalog::Daypart& daypart : dayparts) {
    const LocalWeekMinute clock = daypart.has_time_zone() ? clocks.in(daypart.time_zone) : clocks.user();
    if (daypart.contains(clock.weekday_from_monday, clock.minute_of_day)) return true;
  }
  return false;
}

bool dayparts_hold(std::span<const catalog::Daypart> dayparts, absl::Time now,
                   const absl::TimeZone& user_zone) {
  LocalClocks clocks;
  clocks.reset(now, user_zone);
  return dayparts_hold(dayparts, clocks);
}

}  // namespace decision::targeting
