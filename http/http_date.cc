#include "http/http_date.h"

#include <ctime>

namespace http {

void HttpDate::format(int64_t unix_s, char out[29]) {
  static constexpr char kDays[][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr char kMonths[][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const time_t t = static_cast<time_t>(unix_s);
  tm parts;
  gmtime_r(&t, &parts);
  auto two = [](char* at, int v) {
    at[0] = static_cast<char>('0' + v / 10);
    at[1] = static_cast<char>('0' + v % 10);
  };
  // "Sun, 06 Nov 1994 08:49:37 GMT"
  const char* day = kDays[parts.tm_wday];
  const char* month = kMonths[parts.tm_mon];
  out[0] = day[0]; out[1] = day[1]; out[2] = day[2]; out[3] = ','; out[4] = ' ';
  two(out + 5, parts.tm_mday);
  out[7] = ' ';
  out[8] = month[0]; out[9] = month[1]; out[10] = month[2]; out[11] = ' ';
  const int year = parts.tm_year + 1900;
  two(out + 12, year / 100);
  two(out + 14, year % 100);
  out[16] = ' ';
  two(out + 17, parts.tm_hour);
  out[19] = ':';
  two(out + 20, parts.tm_min);
  out[22] = ':';
  two(out + 23, parts.tm_sec);
  out[25] = ' '; out[26] = 'G'; out[27] = 'M'; out[28] = 'T';
}

std::string_view HttpDate::at(int64_t now_s) {
  if (now_s != cached_s_) {
    format(now_s, text_);
    cached_s_ = now_s;
  }
  return {text_, sizeof(text_)};
}

}  // namespace http
