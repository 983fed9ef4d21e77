// VAST's clock texts: Duration as HH:MM:SS.mmm (xs:time), skipoffset as HH:MM:SS or n%.
#include "decision/video/vast_time.h"

#include <gtest/gtest.h>

namespace decision::video {
namespace {

std::string duration(double seconds) {
  std::string out;
  append_vast_duration(out, seconds);
  return out;
}

std::string skip(catalog::SkipOffset offset) {
  std::string out;
  append_skip_offset(out, offset);
  return out;
}

TEST(VastDuration, IsHoursMinutesSecondsAndMilliseconds) {
  EXPECT_EQ(duration(30), "00:00:30.000");
  EXPECT_EQ(duration(30.5), "00:00:30.500");
  EXPECT_EQ(duration(0.001), "00:00:00.001");
  EXPECT_EQ(duration(3723.25), "01:02:03.250");
}

TEST(VastDuration, RoundsToTheNearestMillisecond) {
  EXPECT_EQ(duration(15.0004), "00:00:15.000");
  EXPECT_EQ(duration(15.0006), "00:00:15.001");
  EXPECT_EQ(duration(59.9996), "00:01:00.000");
}

TEST(VastDuration, StaysWithinADay) {
  EXPECT_EQ(duration(86399), "23:59:59.000");
  EXPECT_EQ(duration(86399.9999), "23:59:59.999");
}

TEST(VastSkipOffset, SecondsAsAClockAndPercentAsPercent) {
  EXPECT_EQ(skip({catalog::SkipOffset::Kind::kSeconds, 5, 0}), "00:00:05");
  EXPECT_EQ(skip({catalog::SkipOffset::Kind::kSeconds, 3725, 0}), "01:02:05");
  EXPECT_EQ(skip({catalog::SkipOffset::Kind::kPercent, 0, 25}), "25%");
  EXPECT_EQ(skip({catalog::SkipOffset::Kind::kPercent, 0, 0}), "0%");
  EXPECT_EQ(skip({catalog::SkipOffset::Kind::kPercent, 0, 100}), "100%");
}

}  // namespace
}  // namespace decision::video
