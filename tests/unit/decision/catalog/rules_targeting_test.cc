// docs/catalog.md rules on targeting: geo and destination ids, location circles,
// dayparts and their time zones, custom expressions.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/status/status.h"
#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using testing::edit;
using ::testing::ElementsAre;
using testing::errors_of;
using testing::kDesignExample;
using testing::load_ok;

constexpr std::string_view kDaypart =
    R"({"days": ["mon","tue","wed","thu","fri"], "start": "08:00", "end": "20:00"})";
constexpr std::string_view kLocation = R"({"lat": 48.8566, "lon": 2.3522, "radiusKm": 25})";

std::string with_daypart(std::string_view daypart) {
  return edit(kDesignExample, kDaypart, daypart);
}
std::string with_location(std::string_view location) {
  return edit(kDesignExample, kLocation, location);
}

TEST(GeoRule, GeoIdsArePositiveIntegers) {
  EXPECT_THAT(errors_of(edit(kDesignExample, "[2988507, 3017382]", R"([2988507, "FR", 0])")),
              ElementsAre("ads[0].targeting.geo[1]: must be a positive integer",
                          "ads[0].targeting.geo[2]: must be a positive integer"));
}

TEST(GeoRule, GeoIdsAreSortedAndUnique) {
  const auto catalog =
      load_ok(edit(kDesignExample, "[2988507, 3017382]", "[3017382, 2988507, 3017382]"));
  ASSERT_NE(catalog, nullptr);
  EXPECT_THAT(catalog->ads()[0].targeting.geo, ElementsAre(2988507u, 3017382u));
}

TEST(DestinationRule, DestinationIdsArePositiveIntegers) {
  EXPECT_THAT(errors_of(edit(kDesignExample, "[2267057]", "[-2267057]")),
              ElementsAre("ads[0].targeting.destination[0]: must be a positive integer"));
}

TEST(TargetingRule, EmptyRulesAreNoRules) {
  std::string catalog = edit(kDesignExample, "[2988507, 3017382]", "[]");
  catalog = edit(catalog, "[2267057]", "null");
  catalog = edit(catalog, std::string("[") + std::string(kLocation) + "]", "[]");
  const auto snapshot = load_ok(catalog);
  ASSERT_NE(snapshot, nullptr);
  EXPECT_TRUE(snapshot->ads()[0].targeting.geo.empty());
  EXPECT_TRUE(snapshot->ads()[0].targeting.destination.empty());
  EXPECT_TRUE(snapshot->ads()[0].targeting.locations.empty());
}

TEST(LocationRule, LatitudeIsWithinPlusMinus90) {
  EXPECT_THAT(errors_of(with_location(R"({"lat": 90.5, "lon": 2.3522, "radiusKm": 25})")),
              ElementsAre("ads[0].targeting.location[0].lat: must be a number in -90..90"));
}

TEST(LocationRule, LongitudeIsWithinPlusMinus180) {
  EXPECT_THAT(errors_of(with_location(R"({"lat": 48.8566, "lon": -180.01, "radiusKm": 25})")),
              ElementsAre("ads[0].targeting.location[0].lon: must be a number in -180..180"));
}

TEST(LocationRule, RadiusIsNotNegative) {
  EXPECT_THAT(errors_of(with_location(R"({"lat": 48.8566, "lon": 2.3522, "radiusKm": -1})")),
              ElementsAre("ads[0].targeting.location[0].radiusKm: must be a number in 0..40075"));
}

TEST(LocationRule, LatitudeAndLongitudeAreRequired) {
  EXPECT_THAT(errors_of(with_location(R"({"radiusKm": 3})")),
              ElementsAre("ads[0].targeting.location[0].lat: is required",
                          "ads[0].targeting.location[0].lon: is required"));
}

TEST(LocationRule, LongSpellingsAreAcceptedAndRadiusDefaultsToZero) {
  const auto catalog = load_ok(with_location(R"({"latitude": -23.55, "longitude": -46.63})"));
  ASSERT_NE(catalog, nullptr);
  const GeoCircle& circle = catalog->ads()[0].targeting.locations.at(0);
  EXPECT_DOUBLE_EQ(circle.lat, -23.55);
  EXPECT_DOUBLE_EQ(circle.lon, -46.63);
  EXPECT_DOUBLE_EQ(circle.radius_km, 0);
}

TEST(DaypartRule, DaysAreMonToSun) {
  EXPECT_THAT(
      errors_of(
          with_daypart(R"({"days": ["mon", "funday", 3], "start": "08:00", "end": "20:00"})")),
      ElementsAre(
          "ads[0].targeting.dayparts[0].days[1]: must be one of mon, tue, wed, thu, fri, sat, sun",
          "ads[0].targeting.dayparts[0].days[2]: must be a string"));
}

TEST(DaypartRule, MissingDaysMeanEveryDay) {
  const auto catalog = load_ok(with_daypart(R"({"start": "08:00", "end": "20:00"})"));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->ads()[0].targeting.dayparts.at(0).days, kEveryDay);
}

TEST(DaypartRule, TimesAreHHMMFrom0000To2400) {
  EXPECT_THAT(errors_of(with_daypart(R"({"start": "8:00", "end": "24:01"})")),
              ElementsAre("ads[0].targeting.dayparts[0].start: must be HH:MM in 00:00..24:00",
                          "ads[0].targeting.dayparts[0].end: must be HH:MM in 00:00..24:00"));
  const auto catalog =
      load_ok(with_daypart(R"({"days": ["sun"], "start": "00:00", "end": "24:00"})"));
  ASSERT_NE(catalog, nullptr);
  const Daypart& daypart = catalog->ads()[0].targeting.dayparts.at(0);
  EXPECT_EQ(daypart.days, 1 << 6);
  EXPECT_EQ(daypart.end_minute, 1440);
  EXPECT_TRUE(daypart.contains(6, 1439));
  EXPECT_FALSE(daypart.contains(0, 0));
}

TEST(DaypartRule, StartIsBeforeEndSoMidnightIsCrossedWithTwoDayparts) {
  EXPECT_THAT(
      errors_of(with_daypart(R"({"days": ["fri"], "start": "22:00", "end": "02:00"})")),
      ElementsAre("ads[0].targeting.dayparts[0].end: must be after start (a daypart crossing "
                  "midnight is written as two dayparts)"));
  EXPECT_THAT(
      errors_of(with_daypart(R"({"start": "10:00", "end": "10:00"})")),
      ElementsAre("ads[0].targeting.dayparts[0].end: must be after start (a daypart crossing "
                  "midnight is written as two dayparts)"));
  EXPECT_NE(load_ok(with_daypart(R"({"days": ["fri"], "start": "22:00", "end": "24:00"},
                                    {"days": ["sat"], "start": "00:00", "end": "02:00"})")),
            nullptr);
}

TEST(DaypartRule, TimeZonesAreIanaNames) {
  EXPECT_THAT(errors_of(with_daypart(
                  R"({"start": "08:00", "end": "20:00", "timezone": "Mars/Olympus_Mons"})")),
              ElementsAre("ads[0].targeting.dayparts[0].timezone: must be an IANA time zone name "
                          "such as Europe/Paris"));
  EXPECT_THAT(errors_of(with_daypart(
                  R"({"start": "08:00", "end": "20:00", "timeZone": "../../etc/passwd"})")),
              ElementsAre("ads[0].targeting.dayparts[0].timeZone: must be an IANA time zone name "
                          "such as Europe/Paris"));
}

TEST(DaypartRule, ADaypartMayFixItsTimeZone) {
  const auto catalog =
      load_ok(with_daypart(R"({"start": "08:00", "end": "20:00", "timezone": "Europe/Paris"})"));
  ASSERT_NE(catalog, nullptr);
  const Daypart& daypart = catalog->ads()[0].targeting.dayparts.at(0);
  EXPECT_TRUE(daypart.has_time_zone());
  EXPECT_EQ(daypart.time_zone_name, "Europe/Paris");
  EXPECT_EQ(daypart.time_zone.name(), "Europe/Paris");
}

TEST(CustomRule, CustomIsKeptWithItsPathForTheCelModule) {
  const auto catalog = load_ok(kDesignExample);
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->ads()[0].targeting.custom->path, "ads[0].targeting.custom");
}

TEST(CustomRule, CustomIsANonEmptyString) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("custom.tier == 'gold' && custom.age >= 18")",
                             R"({"tier": "gold"})")),
              ElementsAre("ads[0].targeting.custom: must be a non-empty string"));
}

TEST(CustomRule, CustomMustCompileWhenACompilerIsGiven) {
  LoadOptions options;
  options.check_custom = [](std::string_view source) {
    return source.find("&&") == std::string_view::npos
               ? absl::OkStatus()
               : absl::InvalidArgumentError("ERROR: <input>:1:21: no &&");
  };
  EXPECT_THAT(errors_of(kDesignExample, options),
              ElementsAre("ads[0].targeting.custom: ERROR: <input>:1:21: no &&"));
}

}  // namespace
}  // namespace decision::catalog
