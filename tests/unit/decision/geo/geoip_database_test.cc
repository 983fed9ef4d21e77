// Against MaxMind's test databases in ../shared/fixtures/geoip/ (their README lists the
// addresses and ids used here).
#include "decision/geo/geoip_database.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "tests/support/allocation_count.h"
#include "tests/unit/decision/geo/geoip_fixture.h"

namespace decision::geo {
namespace {

using testing::fixture;

std::vector<uint8_t> address(const char* text) {
  std::array<uint8_t, 16> bytes{};
  if (inet_pton(AF_INET, text, bytes.data()) == 1) return {bytes.begin(), bytes.begin() + 4};
  EXPECT_EQ(inet_pton(AF_INET6, text, bytes.data()), 1) << text;
  return {bytes.begin(), bytes.end()};
}

const GeoIpDatabase& city_db() {
  static const GeoIpDatabase db = *GeoIpDatabase::open(fixture("GeoIP2-City-Test.mmdb"));
  return db;
}

TEST(GeoIpDatabase, CityRecords) {
  const GeoIpRecord london = city_db().lookup(address("81.2.69.142"));
  EXPECT_TRUE(london.found);
  EXPECT_EQ(london.country_id, 2635167u);
  EXPECT_EQ(london.subdivision_id, 6269131u);
  EXPECT_EQ(london.city_id, 2643743u);
  EXPECT_EQ(london.time_zone, "Europe/London");
  EXPECT_FALSE(london.in_european_union);

  const GeoIpRecord linkoping = city_db().lookup(address("89.160.20.112"));
  EXPECT_EQ(linkoping.country_id, 2661886u);
  EXPECT_EQ(linkoping.subdivision_id, 2685867u);
  EXPECT_EQ(linkoping.city_id, 2694762u);
  EXPECT_EQ(linkoping.time_zone, "Europe/Stockholm");
  EXPECT_TRUE(linkoping.in_european_union);
}

TEST(GeoIpDatabase, IPv6RecordsWithCountryOnly) {
  const GeoIpRecord france = city_db().lookup(address("2a02:cfc0::1"));
  EXPECT_TRUE(france.found);
  EXPECT_EQ(france.country_id, 3017382u);
  EXPECT_EQ(france.subdivision_id, 0u);
  EXPECT_EQ(france.city_id, 0u);
  EXPECT_EQ(france.time_zone, "Europe/Paris");
  EXPECT_TRUE(france.in_european_union);
}

TEST(GeoIpDatabase, UnknownAddressesAreNotFound) {
  EXPECT_FALSE(city_db().lookup(address("10.0.0.1")).found);
  EXPECT_FALSE(city_db().lookup(address("::1")).found);
  EXPECT_FALSE(city_db().lookup(std::vector<uint8_t>{1, 2, 3}).found);
}

TEST(GeoIpDatabase, ACountryDatabaseAnswersTheCountry) {
  const absl::StatusOr<GeoIpDatabase> db = GeoIpDatabase::open(fixture("GeoIP2-Country-Test.mmdb"));
  ASSERT_TRUE(db.ok()) << db.status();
  const GeoIpRecord london = db->lookup(address("81.2.69.142"));
  EXPECT_EQ(london.country_id, 2635167u);
  EXPECT_EQ(london.city_id, 0u);
}

TEST(GeoIpDatabase, ABadFileIsRefusedWithItsName) {
  const absl::StatusOr<GeoIpDatabase> db = GeoIpDatabase::open(fixture("GeoIP2-City-Test.json"));
  ASSERT_FALSE(db.ok());
  EXPECT_NE(db.status().message().find("GeoIP2-City-Test.json"), std::string::npos);
}

TEST(GeoIpDatabase, LookupsAllocateNothing) {
  const std::vector<uint8_t> ip = address("89.160.20.112");
  city_db().lookup(ip);  // opens the database: that allocates, once
  uint64_t ids = 0;
  const uint64_t allocations = decision::testing::allocations_while([&] {
    for (int i = 0; i < 100; ++i) ids += city_db().lookup(ip).city_id;
  });
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(ids, 100u * 2694762u);
}

}  // namespace
}  // namespace decision::geo
