#pragma once
// The `dayparts` rule (docs/targeting.md): eligible when the local time falls in some
// daypart, end exclusive. Local means the daypart's own zone when the catalog gives one,
// else the user's (user.timezone, else the GeoIP zone of user.ip, else UTC: the caller
// resolves which). DST is absl's: a 02:30 that a spring-forward skips never happens, and
// an hour repeated in autumn counts in both passes.
#include <array>
#include <optional>
#include <span>
#include <utility>

#include "absl/time/time.h"
#include "decision/catalog/model.h"

namespace decision::targeting {

// A moment as a weekly clock reads it.
struct LocalWeekMinute {
  int weekday_from_monday = 0;  // 0..6
  int minute_of_day = 0;        // 0..1439
};

LocalWeekMinute local_week_minute(absl::Time now, const absl::TimeZone& zone);

// The local clocks of one moment, each zone read once: every daypart-targeted ad of a
// request reads the same few zones, and a zone conversion costs more than the check.
class LocalClocks {
 public:
  void reset(absl::Time now, const absl::TimeZone& user_zone);
  // The zone dayparts read when they name none.
  const LocalWeekMinute& user();
  LocalWeekMinute in(const absl::TimeZone& zone);

 private:
  static constexpr size_t kZonesKept = 8;  // past this, zones are read each time

  absl::Time now_;
  absl::TimeZone user_zone_;
  std::optional<LocalWeekMinute> user_;
  std::array<std::pair<absl::TimeZone, LocalWeekMinute>, kZonesKept> zones_{};
  size_t zone_count_ = 0;
};

bool dayparts_hold(std::span<const catalog::Daypart> dayparts, LocalClocks& clocks);
// The same, for one ad at one moment.
bool dayparts_hold(std::span<const catalog::Daypart> dayparts, absl::Time now,
                   const absl::TimeZone& user_zone);

}  // namespace decision::targeting
