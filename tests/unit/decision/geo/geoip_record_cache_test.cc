// The per-core record cache answers exactly what the database answers, for every network of
// MaxMind's City test database, and decodes each record once.
#include "decision/geo/geoip_record_cache.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/allocation_count.h"
#include "tests/unit/decision/geo/geoip_fixture.h"

namespace decision::geo {
namespace {

using testing::fixture;

// The first address of every network the database's JSON source lists ("81.2.69.142/31").
std::vector<std::vector<uint8_t>> fixture_addresses() {
  std::ifstream in(fixture("GeoIP2-City-Test.json"));
  std::stringstream text;
  text << in.rdbuf();
  const std::string json = text.str();
  const std::regex network(R"re("([0-9a-fA-F:.]+)/[0-9]+")re");
  std::vector<std::vector<uint8_t>> out;
  for (auto it = std::sregex_iterator(json.begin(), json.end(), network); it != std::sregex_iterator(); ++it) {
    const std::string address = (*it)[1];
    std::array<uint8_t, 16> bytes{};
    if (inet_pton(AF_INET, address.c_str(), bytes.data()) == 1) {
      out.emplace_back(bytes.begin(), bytes.begin() + 4);
    } else if (inet_pton(AF_INET6, address.c_str(), bytes.data()) == 1) {
      out.emplace_back(bytes.begin(), bytes.end());
    }
  }
  return out;
}

void expect_same(const GeoIpRecord& a, const GeoIpRecord& b) {
  EXPECT_EQ(a.found, b.found);
  EXPECT_EQ(a.country_id, b.country_id);
  EXPECT_EQ(a.subdivision_id, b.subdivision_id);
  EXPECT_EQ(a.city_id, b.city_id);
  EXPECT_EQ(a.in_european_union, b.in_european_union);
  EXPECT_EQ(a.time_zone, b.time_zone);
}

TEST(GeoIpRecordCache, AnswersAsTheDatabaseForEveryFixtureNetwork) {
  const GeoIpDatabase db = *GeoIpDatabase::open(fixture("GeoIP2-City-Test.mmdb"));
  const std::vector<std::vector<uint8_t>> addresses = fixture_addresses();
  ASSERT_GT(addresses.size(), 200u);
  GeoIpRecordCache cache;
  for (int pass = 0; pass < 2; ++pass) {
    for (const std::vector<uint8_t>& address : addresses) expect_same(cache.lookup(db, address), db.lookup(address));
  }
}

TEST(GeoIpRecordCache, DecodesARecordOnceForEveryAddressSharingIt) {
  const GeoIpDatabase db = *GeoIpDatabase::open(fixture("GeoIP2-City-Test.mmdb"));
  GeoIpRecordCache cache;
  const std::array<uint8_t, 4> london = {81, 2, 69, 142};
  const std::array<uint8_t, 4> london_too = {81, 2, 69, 143};  // the same /31
  const std::array<uint8_t, 4> nowhere = {10, 1, 2, 3};
  EXPECT_EQ(cache.lookup(db, london).city_id, 2643743u);
  EXPECT_EQ(cache.lookup(db, london_too).city_id, 2643743u);
  EXPECT_EQ(cache.lookup(db, london).city_id, 2643743u);
  EXPECT_EQ(cache.decoded(), 1u);
  EXPECT_FALSE(cache.lookup(db, nowhere).found);
  EXPECT_EQ(cache.decoded(), 1u);
}

TEST(GeoIpRecordCache, AnotherDatabaseEmptiesIt) {
  const GeoIpDatabase city = *GeoIpDatabase::open(fixture("GeoIP2-City-Test.mmdb"));
  const GeoIpDatabase country = *GeoIpDatabase::open(fixture("GeoIP2-Country-Test.mmdb"));
  GeoIpRecordCache cache;
  const std::array<uint8_t, 4> london = {81, 2, 69, 142};
  expect_same(cache.lookup(city, london), city.lookup(london));
  expect_same(cache.lookup(country, london), country.lookup(london));
  expect_same(cache.lookup(city, london), city.lookup(london));
  EXPECT_EQ(cache.decoded(), 3u);
}

TEST(GeoIpRecordCache, LookupsAllocateNothing) {
  const GeoIpDatabase db = *GeoIpDatabase::open(fixture("GeoIP2-City-Test.mmdb"));
  const std::vector<std::vector<uint8_t>> addresses = fixture_addresses();
  GeoIpRecordCache cache;
  uint64_t found = 0;
  const uint64_t allocations = decision::testing::allocations_while([&] {
    for (const std::vector<uint8_t>& address : addresses) found += cache.lookup(db, address).found ? 1 : 0;
  });
  EXPECT_GT(found, 100u);
  EXPECT_EQ(allocations, 0u);
}

}  // namespace
}  // namespace decision::geo
