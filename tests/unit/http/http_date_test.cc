// The Date header's IMF-fixdate (RFC 9110 section 5.6.7), always 29 bytes, in GMT.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "http/http_date.h"

namespace http {
namespace {

std::string formatted(int64_t unix_s) {
  char out[29];
  HttpDate::format(unix_s, out);
  return std::string(out, sizeof(out));
}

TEST(HttpDate, RfcExampleDate) {
  EXPECT_EQ(formatted(784111777), "Sun, 06 Nov 1994 08:49:37 GMT");
}

TEST(HttpDate, UnixEpoch) {
  EXPECT_EQ(formatted(0), "Thu, 01 Jan 1970 00:00:00 GMT");
}

TEST(HttpDate, LastSecondOfAYear) {
  EXPECT_EQ(formatted(1735689599), "Tue, 31 Dec 2024 23:59:59 GMT");
}

TEST(HttpDate, LeapDays) {
  EXPECT_EQ(formatted(951782400), "Tue, 29 Feb 2000 00:00:00 GMT");   // century leap year
  EXPECT_EQ(formatted(1709164800), "Thu, 29 Feb 2024 00:00:00 GMT");
}

TEST(HttpDate, CenturyThatIsNotALeapYearSkipsFebruary29) {
  EXPECT_EQ(formatted(4107542399), "Sun, 28 Feb 2100 23:59:59 GMT");
  EXPECT_EQ(formatted(4107542400), "Mon, 01 Mar 2100 00:00:00 GMT");
}

TEST(HttpDate, SecondsAcrossThe2038Boundary) {
  EXPECT_EQ(formatted(2147483647), "Tue, 19 Jan 2038 03:14:07 GMT");
  EXPECT_EQ(formatted(2147483648), "Tue, 19 Jan 2038 03:14:08 GMT");
}

TEST(HttpDate, FarFutureYear) {
  EXPECT_EQ(formatted(32503680000), "Wed, 01 Jan 3000 00:00:00 GMT");
}

TEST(HttpDate, AtGivesTheSecondsDateAndFollowsTheClock) {
  HttpDate date;
  EXPECT_EQ(date.at(784111777), "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(date.at(784111777), "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(date.at(784111778), "Sun, 06 Nov 1994 08:49:38 GMT");
  EXPECT_EQ(date.at(0), "Thu, 01 Jan 1970 00:00:00 GMT");
}

}  // namespace
}  // namespace http
