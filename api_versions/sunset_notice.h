#pragma once
// The notices of a coming sunset (docs/versions-and-languages.md: warnings are sent 90, 60,
// 30 and 7 days before it), whatever phase the version is in: from 90 days before its
// sunset date every reply of the version carries `Sunset` and warning 20002 naming the
// notice due, the smallest of 90, 60, 30 and 7 that is not below the days left. A client
// that calls once a week still meets every one of them.
#include <array>
#include <cstdint>

#include "absl/time/civil_time.h"
#include "api_versions/version_table.h"

namespace api_versions {

inline constexpr std::array<int64_t, 4> kSunsetNoticeDays = {7, 30, 60, 90};
// sunset_notice_at takes the first notice at or above the days left: the smallest.
static_assert(kSunsetNoticeDays[0] < kSunsetNoticeDays[1] && kSunsetNoticeDays[1] < kSunsetNoticeDays[2] &&
              kSunsetNoticeDays[2] < kSunsetNoticeDays[3]);

struct SunsetNotice {
  int64_t days_left = 0;  // days from today to the sunset date (1 on its eve)
  int64_t notice = 0;     // 90, 60, 30 or 7; 0: no notice due (no sunset, too far, or past)
  bool due() const { return notice != 0; }
};

inline SunsetNotice sunset_notice_at(const VersionEntry& entry, absl::CivilDay today) {
  if (!entry.sunset || today >= *entry.sunset) return {};
  const int64_t days_left = *entry.sunset - today;
  for (int64_t notice : kSunsetNoticeDays) {
    if (days_left <= notice) return {days_left, notice};
  }
  return {days_left, 0};
}

}  // namespace api_versions
