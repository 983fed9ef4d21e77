#include "api_versions/calendar_day.h"

#include "runtime/check.h"

namespace api_versions {
namespace {

constexpr absl::CivilDay kUnixEpochDay(1970, 1, 1);
constexpr int64_t kSecondsPerDay = 86'400;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int digits(std::string_view text, size_t from, size_t count) {
  DECISIOND_CHECK(from + count <= text.size());
  int value = 0;
  for (size_t i = from; i < from + count; ++i) value = value * 10 + (text[i] - '0');
  return value;
}

}  // namespace

std::optional<absl::CivilDay> parse_day(std::string_view text) {
  if (text.size() != kDayTextLength || text[4] != '-' || text[7] != '-') return std::nullopt;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!is_digit(text[i])) return std::nullopt;
  }
  const int year = digits(text, 0, 4);
  const int month = digits(text, 5, 2);
  const int day = digits(text, 8, 2);
  // CivilDay normalizes (February 30 becomes March 2): a date is real when it survives.
  const absl::CivilDay parsed(year, month, day);
  if (parsed.year() != year || parsed.month() != month || parsed.day() != day) {
    return std::nullopt;
  }
  return parsed;
}

std::string day_text(absl::CivilDay day) {
  // Every day the server writes was read as four digits of year, or is today's.
  DECISIOND_CHECK(day.year() >= 0 && day.year() <= 9999);
  std::string out(kDayTextLength, '0');
  auto put = [&out](size_t at, size_t width, int64_t value) {
    for (size_t i = 0; i < width; ++i) {
      out[at + width - 1 - i] = static_cast<char>('0' + value % 10);
      value /= 10;
    }
  };
  put(0, 4, day.year());
  out[4] = '-';
  put(5, 2, day.month());
  out[7] = '-';
  put(8, 2, day.day());
  return out;
}

absl::CivilDay day_of_unix_seconds(int64_t unix_s) {
  int64_t days = unix_s / kSecondsPerDay;
  if (unix_s % kSecondsPerDay < 0) --days;  // floor, not truncation
  return kUnixEpochDay + days;
}

int64_t unix_seconds_of_day(absl::CivilDay day) { return (day - kUnixEpochDay) * kSecondsPerDay; }

}  // namespace api_versions
