#include "tests/integration/utc_days.h"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace integration {

namespace {
std::chrono::sys_days utc_day(int days_from_today) {
  return std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()) + std::chrono::days(days_from_today);
}
}  // namespace

std::string utc_date(int days_from_today) {
  const std::chrono::year_month_day day(utc_day(days_from_today));
  char text[16];
  std::snprintf(text, sizeof(text), "%04d-%02u-%02u", static_cast<int>(day.year()),
                static_cast<unsigned>(day.month()), static_cast<unsigned>(day.day()));
  return text;
}

std::string utc_midnight(int days_from_today) { return utc_date(days_from_today) + "T00:00:00Z"; }

std::string http_date_at_midnight(int days_from_today) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(utc_day(days_from_today));
  std::tm parts{};
  ::gmtime_r(&seconds, &parts);
  static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char text[40];
  std::snprintf(text, sizeof(text), "%s, %02d %s %04d 00:00:00 GMT", kDays[parts.tm_wday], parts.tm_mday,
                kMonths[parts.tm_mon], parts.tm_year + 1900);
  return text;
}

}  // namespace integration
