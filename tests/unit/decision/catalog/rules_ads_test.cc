// docs/catalog.md rules on an ad's own fields, and the catalog's top-level members.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "decision/catalog/snapshot.h"
#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using testing::edit;
using ::testing::ElementsAre;
using testing::errors_of;
using testing::kDesignExample;
using testing::load_ok;

std::string with_ad_member(std::string_view from, std::string_view to) {
  return edit(kDesignExample, from, to);
}

TEST(WeightRule, WeightIsAPositiveInteger) {
  EXPECT_THAT(errors_of(with_ad_member(R"("weight": 10,)", R"("weight": 0,)")),
              ElementsAre("ads[0].weight: must be an integer in 1..1000000"));
  EXPECT_THAT(errors_of(with_ad_member(R"("weight": 10,)", R"("weight": 2.5,)")),
              ElementsAre("ads[0].weight: must be an integer in 1..1000000"));
  EXPECT_THAT(errors_of(with_ad_member(R"("weight": 10,)", "")),
              ElementsAre("ads[0].weight: is required"));
}

TEST(FormatRule, FormatIsNativeOrVideo) {
  EXPECT_THAT(errors_of(with_ad_member(R"("format": "native")", R"("format": "banner")")),
              ElementsAre("ads[0].format: must be native or video"));
}

TEST(FormatRule, FormatDefaultsToNative) {
  const auto catalog = load_ok(with_ad_member(R"("format": "native",)", ""));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->ads()[0].format, Format::kNative);
}

TEST(StyleRule, StyleDefaultsToTheTemplateStyle) {
  std::string catalog = edit(kDesignExample, R"("style": "default"}])", R"("style": "dark"}])");
  catalog = edit(catalog, R"("style": "default",)", "");
  const auto snapshot = load_ok(catalog);
  ASSERT_NE(snapshot, nullptr);
  EXPECT_EQ(snapshot->ads()[0].style, "dark");
}

TEST(FlightRule, StartIsRfc3339) {
  EXPECT_THAT(
      errors_of(with_ad_member(R"("start": "2026-01-01T00:00:00Z")", R"("start": "2026-01-01")")),
      ElementsAre(
          "ads[0].start: must be an RFC 3339 time with an offset, such as 2026-01-01T00:00:00Z"));
  EXPECT_THAT(
      errors_of(with_ad_member(R"("start": "2026-01-01T00:00:00Z")",
                               R"("start": "2026-01-01T00:00:00")")),
      ElementsAre(
          "ads[0].start: must be an RFC 3339 time with an offset, such as 2026-01-01T00:00:00Z"));
  EXPECT_THAT(errors_of(with_ad_member(R"("start": "2026-01-01T00:00:00Z",)", "")),
              ElementsAre("ads[0].start: is required"));
}

TEST(FlightRule, EndIsRfc3339) {
  EXPECT_THAT(
      errors_of(with_ad_member(R"("end": null)", R"("end": "next year")")),
      ElementsAre(
          "ads[0].end: must be an RFC 3339 time with an offset, such as 2026-01-01T00:00:00Z"));
}

TEST(FlightRule, EndIsAfterStart) {
  EXPECT_THAT(errors_of(with_ad_member(R"("end": null)", R"("end": "2026-01-01T00:00:00Z")")),
              ElementsAre("ads[0].end: must be after start"));
  EXPECT_THAT(errors_of(with_ad_member(R"("end": null)", R"("end": "2025-12-31T23:00:00Z")")),
              ElementsAre("ads[0].end: must be after start"));
}

TEST(FlightRule, OffsetsAreHonouredAndEndIsExclusive) {
  const auto catalog =
      load_ok(with_ad_member(R"("end": null)", R"("end": "2026-01-01T02:00:00+01:00")"));
  ASSERT_NE(catalog, nullptr);
  const Ad& ad = catalog->ads()[0];
  EXPECT_EQ(ad.end_s, ad.start_s + 3600);
  EXPECT_TRUE(ad.active_at(ad.start_s));
  EXPECT_TRUE(ad.active_at(ad.end_s - 1));
  EXPECT_FALSE(ad.active_at(ad.end_s));
  EXPECT_FALSE(ad.active_at(ad.start_s - 1));
}

TEST(FrequencyCapRule, CapsArePositive) {
  EXPECT_THAT(
      errors_of(with_ad_member(R"({"impressions": 3, "windowSeconds": 86400})",
                               R"({"impressions": 0, "windowSeconds": -1})")),
      ElementsAre("ads[0].frequencyCaps[0].impressions: must be an integer in 1..1000000",
                  "ads[0].frequencyCaps[0].windowSeconds: must be an integer in 1..31622400"));
}

TEST(FrequencyCapRule, CapFieldsAreRequired) {
  EXPECT_THAT(errors_of(with_ad_member(R"({"impressions": 3, "windowSeconds": 86400})",
                                       R"({"impressions": 3})")),
              ElementsAre("ads[0].frequencyCaps[0].windowSeconds: is required"));
}

TEST(DeliveryGoalRule, AGoalIsReadWithEvenPacingByDefault) {
  const auto catalog = load_ok(with_ad_member(
      R"("end": null)", R"("end": "2026-02-01T00:00:00Z", "delivery": {"impressions": 5000})"));
  ASSERT_NE(catalog, nullptr);
  const Ad& ad = catalog->ads()[0];
  ASSERT_TRUE(ad.delivery.has_value());
  EXPECT_EQ(ad.delivery->impressions, 5000u);
  EXPECT_EQ(ad.delivery->pacing, Pacing::kEven);
  const auto asap = load_ok(with_ad_member(
      R"("end": null)", R"("end": "2026-02-01T00:00:00Z", "delivery": {"impressions": 1, "pacing": "asap"})"));
  ASSERT_NE(asap, nullptr);
  EXPECT_EQ(asap->ads()[0].delivery->pacing, Pacing::kAsap);
}

TEST(DeliveryGoalRule, AGoalNeedsAnEnd) {
  EXPECT_THAT(errors_of(with_ad_member(R"("end": null)", R"("end": null, "delivery": {"impressions": 100})")),
              ElementsAre("ads[0].delivery: a delivery goal needs the ad's end: it is spread over start..end"));
}

TEST(DeliveryGoalRule, ImpressionsAndPacingAreChecked) {
  EXPECT_THAT(errors_of(with_ad_member(R"("end": null)", R"("end": "2026-02-01T00:00:00Z",
                                       "delivery": {"impressions": 0, "pacing": "fast"})")),
              ElementsAre("ads[0].delivery.impressions: must be an integer in 1..1099511627776",
                          "ads[0].delivery.pacing: must be even, frontloaded or asap"));
  EXPECT_THAT(errors_of(with_ad_member(R"("end": null)", R"("end": "2026-02-01T00:00:00Z", "delivery": {})")),
              ElementsAre("ads[0].delivery.impressions: is required"));
  EXPECT_THAT(errors_of(with_ad_member(R"("end": null)", R"("end": "2026-02-01T00:00:00Z", "delivery": 7)")),
              ElementsAre("ads[0].delivery: must be an object"));
}

TEST(DeliveryGoalRule, TheSnapshotNumbersGoalsInAdOrder) {
  const auto loaded = load_ok(kDesignExample);
  ASSERT_NE(loaded, nullptr);
  CatalogData data = loaded->data();
  const Ad model = data.ads[0];
  data.ads.assign(4, model);
  for (uint32_t i = 0; i < data.ads.size(); ++i) data.ads[i].id = 9000 + i;
  data.ads[1].delivery = DeliveryGoal{.impressions = 10, .index = 7};  // whatever it said, the snapshot numbers
  data.ads[3].delivery = DeliveryGoal{.impressions = 10, .pacing = Pacing::kAsap};
  const CatalogSnapshot snapshot(std::move(data));
  EXPECT_FALSE(snapshot.ads()[0].delivery.has_value());
  EXPECT_EQ(snapshot.ads()[1].delivery->index, 0u);
  EXPECT_FALSE(snapshot.ads()[2].delivery.has_value());
  EXPECT_EQ(snapshot.ads()[3].delivery->index, 1u);
}

TEST(CatalogRule, RevisionIsRequired) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("revision": "2026-11-21.1",)", "")),
              ElementsAre("revision: is required"));
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"("revision": "2026-11-21.1",)", R"("revision": 7,)")),
      ElementsAre("revision: must be a non-empty string"));
}

TEST(CatalogRule, DefaultLanguageIsRequired) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("defaultLanguage": "en",)", "")),
              ElementsAre("defaultLanguage: is required"));
}

TEST(CatalogRule, DefaultLanguageIsALanguageTag) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("defaultLanguage": "en",)",
                             R"("defaultLanguage": "English",)")),
              ElementsAre("defaultLanguage: is not a language tag (such as en or pt-BR)"));
}

TEST(CatalogRule, EveryTableIsRequired) {
  EXPECT_THAT(errors_of(R"({"revision": "r", "defaultLanguage": "en"})"),
              ElementsAre("priorities: is required", "advertisers: is required",
                          "templates: is required", "placements: is required", "ads: is required"));
}

TEST(CatalogRule, AnEmptyCatalogLoads) {
  const auto catalog = load_ok(R"({"revision": "r", "defaultLanguage": "en", "priorities": [],
      "advertisers": [], "templates": [], "placements": [], "ads": []})");
  ASSERT_NE(catalog, nullptr);
  EXPECT_TRUE(catalog->ads().empty());
}

TEST(CatalogRule, TheCatalogIsAnObject) {
  EXPECT_THAT(errors_of("[]"), ElementsAre("the catalog must be a JSON object"));
}

TEST(CatalogRule, AdvertiserNameIsRequiredAndLogoIsAUrl) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("name": "Acme Air",)", R"("logo": 1,)")),
              ElementsAre("advertisers[0].name: is required"));
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"("https://cdn.example.com/acme.png")", R"("cdn/acme.png")")),
      ElementsAre("advertisers[0].logoUrl: must be an absolute http or https URL"));
}

}  // namespace
}  // namespace decision::catalog
