// targeting.location items (10018).
#include "reader_fixture.h"

namespace decision::request {
namespace {

using Location = ReaderTest;

TEST_F(Location, PointsAreRead) {
  ASSERT_TRUE(read(with_targeting(R"({"location":[{"lat":48.8566,"lon":2.3522,"radius":25}]})")).ok());
  ASSERT_EQ(placement().targeting.location().size(), 1u);
  const GeoPoint& p = placement().targeting.location()[0];
  EXPECT_DOUBLE_EQ(p.lat_deg, 48.8566);
  EXPECT_DOUBLE_EQ(p.lon_deg, 2.3522);
  EXPECT_DOUBLE_EQ(p.radius_km, 25);
}

TEST_F(Location, LatitudeLongitudeRadiusKmSpellingsAreAccepted) {
  ASSERT_TRUE(read(with_targeting(
                       R"({"location":[{"latitude":-33.5,"longitude":151.25,"radiusKm":2.5},
                                       {"lat":1,"longitude":2,"radiusKm":3},
                                       {"latitude":4,"lon":5,"radius":6}]})"))
                  .ok());
  const auto points = placement().targeting.location();
  ASSERT_EQ(points.size(), 3u);
  EXPECT_DOUBLE_EQ(points[0].lat_deg, -33.5);
  EXPECT_DOUBLE_EQ(points[0].lon_deg, 151.25);
  EXPECT_DOUBLE_EQ(points[0].radius_km, 2.5);
  EXPECT_DOUBLE_EQ(points[1].lon_deg, 2);
  EXPECT_DOUBLE_EQ(points[2].lat_deg, 4);
  EXPECT_DOUBLE_EQ(points[2].radius_km, 6);
}

TEST_F(Location, RadiusDefaultsToZero) {
  ASSERT_TRUE(read(with_targeting(R"({"location":[{"lat":1,"lon":2},{"lat":1,"lon":2,"radius":null}]})")).ok());
  EXPECT_EQ(placement().targeting.location()[0].radius_km, 0);
  EXPECT_EQ(placement().targeting.location()[1].radius_km, 0);
}

TEST_F(Location, BoundaryValuesAreAccepted) {
  ASSERT_TRUE(read(with_targeting(R"({"location":[{"lat":90,"lon":180},{"lat":-90,"lon":-180,"radius":0},
                                                   {"lat":-0.0,"lon":0e5}]})")).ok());
  EXPECT_EQ(placement().targeting.location().size(), 3u);
}

TEST_F(Location, LatOutOfRangeIs10018AtItsPath) {
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":1,"lon":2},{"lat":90.5,"lon":2}]})")),
            (Error{10018, "placements[0].targeting.location[1].lat"}));
  EXPECT_EQ(result_.errors[0].message, "lat must be a number from -90 to 90");
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"latitude":-91,"lon":2}]})")),
            (Error{10018, "placements[0].targeting.location[0].latitude"}));
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":1e400,"lon":2}]})")),
            (Error{10018, "placements[0].targeting.location[0].lat"}));
}

TEST_F(Location, LonOutOfRangeIs10018AtItsPath) {
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":1,"lon":180.001}]})")),
            (Error{10018, "placements[0].targeting.location[0].lon"}));
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":1,"longitude":-200}]})")),
            (Error{10018, "placements[0].targeting.location[0].longitude"}));
}

TEST_F(Location, LatOrLonMissingIs10018) {
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lon":2}]})")),
            (Error{10018, "placements[0].targeting.location[0].lat"}));
  EXPECT_EQ(result_.errors[0].message, "lat is required");
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":2,"lon":null}]})")),
            (Error{10018, "placements[0].targeting.location[0].lon"}));
  read(with_targeting(R"({"location":[{"radius":3}]})"));
  EXPECT_EQ(errors(), (std::vector<Error>{{10018, "placements[0].targeting.location[0].lat"},
                                          {10018, "placements[0].targeting.location[0].lon"}}));
}

TEST_F(Location, LatOrLonNotANumberIs10018) {
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":"48.8","lon":2}]})")),
            (Error{10018, "placements[0].targeting.location[0].lat"}));
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":48.8,"lon":[2]}]})")),
            (Error{10018, "placements[0].targeting.location[0].lon"}));
}

TEST_F(Location, RadiusNegativeOrNotANumberIs10018) {
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":1,"lon":2,"radius":-1}]})")),
            (Error{10018, "placements[0].targeting.location[0].radius"}));
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":1,"lon":2,"radiusKm":"5"}]})")),
            (Error{10018, "placements[0].targeting.location[0].radiusKm"}));
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":1,"lon":2,"radius":1e999}]})")),
            (Error{10018, "placements[0].targeting.location[0].radius"}));
}

TEST_F(Location, ItemNotAnObjectIs10018) {
  EXPECT_EQ(only_error(with_targeting(R"({"location":[[48.8,2.3]]})")),
            (Error{10018, "placements[0].targeting.location[0]"}));
  EXPECT_EQ(result_.errors[0].message, "location item must be an object");
  EXPECT_EQ(only_error(with_targeting(R"({"location":[{"lat":1,"lon":2},null]})")),
            (Error{10018, "placements[0].targeting.location[1]"}));
}

TEST_F(Location, NotAnArrayIs10018) {
  EXPECT_EQ(only_error(with_targeting(R"({"location":{"lat":1,"lon":2}})")),
            (Error{10018, "placements[0].targeting.location"}));
}

TEST_F(Location, MoreThanSixteenItemsIs10018) {
  std::string points;
  for (int i = 0; i < 17; ++i) points += std::string(i ? "," : "") + R"({"lat":1,"lon":2})";
  EXPECT_EQ(only_error(with_targeting(R"({"location":[)" + points + "]}")),
            (Error{10018, "placements[0].targeting.location"}));
  EXPECT_EQ(reader_.counters().location_over_limit, 1u);
}

}  // namespace
}  // namespace decision::request
