#include "decision/targeting/rules/location_rule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "decision/targeting/rules/great_circle.h"

namespace decision::targeting {
namespace {

TEST(GreatCircle, KnownDistances) {
  EXPECT_NEAR(great_circle_km(48.8566, 2.3522, 51.5074, -0.1278), 343.6, 0.5);   // Paris-London
  EXPECT_NEAR(great_circle_km(40.7128, -74.0060, 34.0522, -118.2437), 3936, 5);  // NY-LA
  EXPECT_DOUBLE_EQ(great_circle_km(12.5, 45.25, 12.5, 45.25), 0.0);
  EXPECT_NEAR(great_circle_km(0, 0, 0, 180), M_PI * kEarthRadiusKm, 1e-6);       // antipodes
  EXPECT_NEAR(great_circle_km(90, 0, 90, 123), 0.0, 1e-9);                       // the pole
}

TEST(GreatCircle, TheAntimeridianIsNotAWall) {
  // 0.2 degrees of longitude at the equator, across +180/-180: about 22 km, not 40,000.
  EXPECT_NEAR(great_circle_km(0, 179.9, 0, -179.9), 22.24, 0.01);
  EXPECT_NEAR(great_circle_km(-16.5, 179.95, -16.5, -179.95), great_circle_km(-16.5, -0.05, -16.5, 0.05), 1e-9);
}

catalog::GeoCircle circle(double lat, double lon, double radius_km) { return {lat, lon, radius_km}; }
request::GeoPoint point(double lat, double lon, double radius_km = 0) { return {lat, lon, radius_km}; }

TEST(LocationRule, RadiusZeroMatchesTheSamePointOnly) {
  const std::vector<catalog::GeoCircle> ad = {circle(48.8566, 2.3522, 0)};
  EXPECT_TRUE(location_matches(ad, std::vector{point(48.8566, 2.3522)}));
  EXPECT_FALSE(location_matches(ad, std::vector{point(48.8567, 2.3522)}));  // 11 m away
}

TEST(LocationRule, TheReachIsTheAdRadiusPlusTheRequestRadius) {
  const std::vector<catalog::GeoCircle> ad = {circle(48.8566, 2.3522, 300)};  // Paris, 300 km
  const double london_km = great_circle_km(48.8566, 2.3522, 51.5074, -0.1278);
  EXPECT_FALSE(location_matches(ad, std::vector{point(51.5074, -0.1278)}));
  EXPECT_TRUE(location_matches(ad, std::vector{point(51.5074, -0.1278, london_km - 300 + 0.01)}));
  EXPECT_FALSE(location_matches(ad, std::vector{point(51.5074, -0.1278, london_km - 300 - 0.01)}));
}

TEST(LocationRule, AnyPointAgainstAnyCircle) {
  const std::vector<catalog::GeoCircle> ad = {circle(0, 0, 1), circle(-16.5, 179.99, 10)};  // Fiji side
  EXPECT_TRUE(location_matches(ad, std::vector{point(40, 40), point(-16.5, -179.99)}));  // 2 km across
  EXPECT_FALSE(location_matches(ad, std::vector{point(40, 40), point(10, 10)}));
  EXPECT_FALSE(location_matches(ad, std::vector<request::GeoPoint>{}));
}

}  // namespace
}  // namespace decision::targeting
