// The index built at load: placement key -> placement, and per placement and format the
// candidates grouped by tier, heaviest tier first, with weights ready for sampling.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/substitute.h"
#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::load_ok;

std::string ad(int id, std::string_view placements, std::string_view priority, int weight,
               std::string_view format,
               std::string_view flight = R"("start": "2026-01-01T00:00:00Z")") {
  const std::string video = format == "video" ? R"(, "video": {"delivery": "json", "duration": 15,
           "mediaFiles": [{"url": "https://cdn.example.com/a.mp4", "type": "video/mp4", "width": 640, "height": 360}]})"
                                              : "";
  return absl::Substitute(
      R"({"id": $0, "advertiserId": 1, "templateId": 1, "placementIds": $1, "priority": "$2",
          "weight": $3, "format": "$4", $5,
          "creatives": [{"id": $0, "contents": {"en": [{"key": "title", "value": "ad $0"}]}$6}]})",
      id, std::string(placements), std::string(priority), weight, std::string(format),
      std::string(flight), video);
}

std::string catalog_with(const std::vector<std::string>& ads) {
  // Tiers listed lightest first: the index, not the file, orders them.
  return absl::StrCat(R"({"revision": "index-test", "defaultLanguage": "en",
      "priorities": [{"key": "house", "weight": 1}, {"key": "standard", "weight": 50},
                     {"key": "sponsorship", "weight": 100}],
      "advertisers": [{"id": 1, "name": "A"}], "templates": [{"id": 1, "key": "t"}],
      "placements": [{"id": 7, "key": "home_top"}, {"id": 8, "key": "sidebar"},
                     {"id": 9, "key": "video_preroll"}, {"id": 10, "key": "empty"}],
      "ads": [)",
                      absl::StrJoin(ads, ","), "]}");
}

const std::vector<std::string> kAds = {
    ad(101, "[7, 8]", "standard", 10, "native"),  // ad index 0
    ad(102, "[7]", "house", 1, "native"),         // 1
    ad(103, "[7, 9]", "standard", 20, "video"),   // 2
    ad(104, "[7]", "sponsorship", 5, "native"),   // 3
    ad(105, "[7]", "standard", 30, "native"),     // 4
    ad(106, "[9]", "sponsorship", 2, "video"),    // 5
};

struct Group {
  std::string tier;
  std::vector<uint32_t> ads;
  std::vector<uint32_t> weights;
  bool operator==(const Group&) const = default;
};

void PrintTo(const Group& g, std::ostream* os) {
  *os << g.tier << " ads [" << absl::StrJoin(g.ads, ",") << "] weights ["
      << absl::StrJoin(g.weights, ",") << "]";
}

std::vector<Group> groups(const CatalogSnapshot& catalog, std::string_view key,
                          FormatFilter format) {
  std::vector<Group> out;
  const std::optional<uint32_t> placement = catalog.index().placement_index(key);
  if (!placement) return out;
  for (const TierCandidates& tier : catalog.index().candidates(*placement, format)) {
    out.push_back({catalog.priorities()[tier.tier_index].key,
                   {tier.ad_indexes.begin(), tier.ad_indexes.end()},
                   {tier.weights.begin(), tier.weights.end()}});
  }
  return out;
}

TEST(CatalogIndex, TiersComeInDescendingWeightOrder) {
  const auto catalog = load_ok(catalog_with(kAds));
  ASSERT_NE(catalog, nullptr);
  EXPECT_THAT(groups(*catalog, "home_top", FormatFilter::kNative),
              ElementsAre(Group{"sponsorship", {3}, {5}}, Group{"standard", {0, 4}, {10, 30}},
                          Group{"house", {1}, {1}}));
  const auto tiers = catalog->index().candidates(*catalog->index().placement_index("home_top"),
                                                 FormatFilter::kNative);
  EXPECT_EQ(tiers[0].tier_weight, 100u);
  EXPECT_EQ(tiers[1].tier_weight, 50u);
  EXPECT_EQ(tiers[2].tier_weight, 1u);
}

TEST(CatalogIndex, CandidatesArePerFormat) {
  const auto catalog = load_ok(catalog_with(kAds));
  ASSERT_NE(catalog, nullptr);
  EXPECT_THAT(groups(*catalog, "home_top", FormatFilter::kVideo),
              ElementsAre(Group{"standard", {2}, {20}}));
  EXPECT_THAT(groups(*catalog, "home_top", FormatFilter::kAny),
              ElementsAre(Group{"sponsorship", {3}, {5}},
                          Group{"standard", {0, 2, 4}, {10, 20, 30}}, Group{"house", {1}, {1}}));
  EXPECT_THAT(groups(*catalog, "video_preroll", FormatFilter::kNative), IsEmpty());
  EXPECT_THAT(groups(*catalog, "video_preroll", FormatFilter::kVideo),
              ElementsAre(Group{"sponsorship", {5}, {2}}, Group{"standard", {2}, {20}}));
}

TEST(CatalogIndex, AnAdInTwoPlacementsIsACandidateInBoth) {
  const auto catalog = load_ok(catalog_with(kAds));
  ASSERT_NE(catalog, nullptr);
  EXPECT_THAT(groups(*catalog, "sidebar", FormatFilter::kAny),
              ElementsAre(Group{"standard", {0}, {10}}));
  EXPECT_THAT(groups(*catalog, "home_top", FormatFilter::kNative)[1].ads, ::testing::Contains(0u));
}

TEST(CatalogIndex, APlacementWithoutAdsHasNoCandidates) {
  const auto catalog = load_ok(catalog_with(kAds));
  ASSERT_NE(catalog, nullptr);
  ASSERT_TRUE(catalog->index().placement_index("empty").has_value());
  EXPECT_THAT(groups(*catalog, "empty", FormatFilter::kAny), IsEmpty());
}

TEST(CatalogIndex, AnUnknownPlacementKeyIsNotFound) {
  const auto catalog = load_ok(catalog_with(kAds));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->index().placement_index("no_such_key"), std::nullopt);
  EXPECT_EQ(catalog->index().placement_index(""), std::nullopt);
  EXPECT_EQ(catalog->index().placement_index("HOME_TOP"), std::nullopt);  // keys are exact
  EXPECT_EQ(catalog->find_placement("no_such_key"), nullptr);
  EXPECT_TRUE(catalog->index().candidates(99, FormatFilter::kAny).empty());
}

TEST(CatalogIndex, APlacementKeyFindsItsPlacement) {
  const auto catalog = load_ok(catalog_with(kAds));
  ASSERT_NE(catalog, nullptr);
  const std::string key = "sidebar";  // not a literal: the look-up takes any string_view
  EXPECT_EQ(catalog->index().placement_index(std::string_view(key)), 1u);
  ASSERT_NE(catalog->find_placement(std::string_view(key)), nullptr);
  EXPECT_EQ(catalog->find_placement(std::string_view(key))->id, 8u);
}

TEST(CatalogIndex, MaxTierSizeBoundsTheSamplerScratch) {
  const auto catalog = load_ok(catalog_with(kAds));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->index().max_tier_size(), 3u);  // home_top, any format, standard
}

TEST(CatalogIndex, NextFlightChangeIsTheNextStartOrEnd) {
  const auto catalog = load_ok(catalog_with({
      ad(1, "[7]", "standard", 1, "native",
         R"("start": "2026-01-01T00:00:00Z", "end": "2026-03-01T00:00:00Z")"),
      ad(2, "[7]", "standard", 1, "native", R"("start": "2026-02-01T00:00:00Z")"),
  }));
  ASSERT_NE(catalog, nullptr);
  const int64_t jan = 1'767'225'600, feb = 1'769'904'000, mar = 1'772'323'200;
  EXPECT_EQ(catalog->index().next_flight_change_s(jan - 1), jan);
  EXPECT_EQ(catalog->index().next_flight_change_s(jan), feb);
  EXPECT_EQ(catalog->index().next_flight_change_s(feb + 5), mar);
  EXPECT_EQ(catalog->index().next_flight_change_s(mar), kNoEnd);
}

TEST(CatalogSnapshot, RecordsAreFoundById) {
  const auto catalog = load_ok(catalog_with(kAds));
  ASSERT_NE(catalog, nullptr);
  ASSERT_NE(catalog->find_ad(103), nullptr);
  EXPECT_EQ(catalog->find_ad(103)->format, Format::kVideo);
  EXPECT_EQ(catalog->ad_index(103), 2u);
  EXPECT_EQ(catalog->find_ad(999), nullptr);
  const auto creative = catalog->find_creative(105);
  ASSERT_TRUE(creative.has_value());
  EXPECT_EQ(creative->ad_index, 4u);
  EXPECT_EQ(creative->creative_index, 0u);
  EXPECT_EQ(catalog->find_advertiser(1)->name, "A");
  EXPECT_EQ(catalog->find_template(1)->key, "t");
  EXPECT_EQ(catalog->find_placement(Id{9})->key, "video_preroll");
  EXPECT_EQ(catalog->find_template(2), nullptr);
}

}  // namespace
}  // namespace decision::catalog
