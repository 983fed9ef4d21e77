// Against the real GeoNames dumps of ../shared/fixtures/geonames/.
#include "decision/geo/geonames_hierarchy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <vector>

namespace decision::geo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const GeoNamesHierarchy& fixture() {
  static const GeoNamesHierarchy hierarchy = [] {
    absl::StatusOr<GeoNamesHierarchy> loaded = GeoNamesHierarchy::load_dir(GEONAMES_FIXTURE_DIR);
    EXPECT_TRUE(loaded.ok()) << loaded.status();
    return *std::move(loaded);
  }();
  return hierarchy;
}

std::vector<GeoNameId> widened(GeoNameId id) {
  std::array<GeoNameId, kMaxWidened> out{};
  const size_t n = fixture().widen(id, out);
  return {out.begin(), out.begin() + n};
}

TEST(GeoNamesHierarchy, ACityCountsAsItsDivisionAndItsCountry) {
  EXPECT_THAT(widened(2643743), ElementsAre(2643743, 6269131, 2635167));  // London, England, GB
  EXPECT_THAT(widened(5128581), ElementsAre(5128581, 5128638, 6252001));  // New York City, NY, US
}

TEST(GeoNamesHierarchy, ADivisionCountsAsItsCountry) {
  EXPECT_THAT(widened(6269131), ElementsAre(6269131, 2635167));
  EXPECT_THAT(widened(3012874), ElementsAre(3012874, 3017382));  // Ile-de-France, FR
}

TEST(GeoNamesHierarchy, ACityWhoseDivisionCodeIsGoneKeepsItsCountry) {
  // The 2012 cities dump files Paris under the old region code A8, which the 2019
  // admin1 file no longer has.
  EXPECT_THAT(widened(2988507), ElementsAre(2988507, 3017382));
}

TEST(GeoNamesHierarchy, CountriesAndUnknownIdsStandForThemselves) {
  EXPECT_THAT(widened(3017382), ElementsAre(3017382));
  EXPECT_THAT(widened(42), ElementsAre(42));
}

TEST(GeoNamesHierarchy, SizesAndCodes) {
  EXPECT_GT(fixture().cities(), 20000u);
  EXPECT_GT(fixture().divisions(), 3000u);
  EXPECT_GT(fixture().countries(), 240u);
  EXPECT_EQ(fixture().country_of_code("SE"), 2661886u);
  EXPECT_EQ(fixture().country_of_code("XX"), 0u);
}

class TemporaryGeoNamesDir {
 public:
  TemporaryGeoNamesDir() {
    char pattern[] = "/tmp/decisiond-geonames-XXXXXX";
    path_ = mkdtemp(pattern);
    for (const char* file : {"countryInfo.txt", "admin1CodesASCII.txt", "cities15000.txt"}) {
      std::filesystem::copy_file(std::string(GEONAMES_FIXTURE_DIR) + "/" + file, path_ + "/" + file);
    }
  }
  ~TemporaryGeoNamesDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(GeoNamesHierarchy, AMissingFileIsNamed) {
  TemporaryGeoNamesDir dir;
  std::filesystem::remove(dir.path() + "/admin1CodesASCII.txt");
  const absl::StatusOr<GeoNamesHierarchy> loaded = GeoNamesHierarchy::load_dir(dir.path());
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(std::string(loaded.status().message()), HasSubstr("admin1CodesASCII.txt: cannot be read"));
}

TEST(GeoNamesHierarchy, AMalformedRowIsNamedWithItsLine) {
  TemporaryGeoNamesDir dir;
  std::ofstream(dir.path() + "/cities15000.txt", std::ios::app) << "not-an-id\tX\n";
  const absl::StatusOr<GeoNamesHierarchy> loaded = GeoNamesHierarchy::load_dir(dir.path());
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(std::string(loaded.status().message()),
              ::testing::MatchesRegex(".*cities15000.txt:[0-9]+: expected at least 11 tab-separated fields"));
}

}  // namespace
}  // namespace decision::geo
