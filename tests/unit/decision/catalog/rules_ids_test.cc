// docs/catalog.md: ids are positive integers, unique per kind; placementIds,
// advertiserId, templateId and priority must resolve. Keys that requests or ads name
// (placement keys, priority keys) are unique too.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using testing::edit;
using ::testing::ElementsAre;
using testing::errors_of;
using testing::kDesignExample;
using testing::load_ok;
using testing::with_extra_ad;

TEST(IdRule, IdsArePositiveIntegers) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("id": 1001)", R"("id": 0)")),
              ElementsAre("ads[0].id: must be a positive integer"));
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("id": 1001)", R"("id": -5)")),
              ElementsAre("ads[0].id: must be a positive integer"));
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("id": 1001)", R"("id": 10.5)")),
              ElementsAre("ads[0].id: must be a positive integer"));
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("id": 1001)", R"("id": "1001")")),
              ElementsAre("ads[0].id: must be a positive integer"));
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("id": 2002)", R"("id": 0)")),
              ElementsAre("ads[0].creatives[0].id: must be a positive integer"));
}

TEST(IdRule, IdsUpToTheTopOfUint64Load) {
  const auto catalog =
      load_ok(edit(kDesignExample, R"("id": 1001)", R"("id": 18446744073709551615)"));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->ads()[0].id, 18446744073709551615u);
}

TEST(IdRule, IdsAreRequired) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("id": 42, )", "")),
              ElementsAre("advertisers[0].id: is required",
                          "ads[0].advertiserId: unknown advertiser id 42"));
}

TEST(IdRule, IdsAreUniquePerKind) {
  const std::string catalog =
      edit(kDesignExample, R"("logoUrl": "https://cdn.example.com/acme.png"})",
           R"("logoUrl": "https://cdn.example.com/acme.png"}, {"id": 42, "name": "Acme Two"})");
  EXPECT_THAT(
      errors_of(catalog),
      ElementsAre("advertisers[1].id: duplicate advertiser id 42 (also at advertisers[0].id)"));
  EXPECT_THAT(errors_of(with_extra_ad(R"({"id": 1001, "advertiserId": 42, "placementIds": [7],
      "templateId": 3, "priority": "house", "weight": 1, "start": "2026-01-01T00:00:00Z",
      "creatives": [{"id": 2003, "contents": {"en": [{"key": "title", "value": "x"}]}}]})")),
              ElementsAre("ads[1].id: duplicate ad id 1001 (also at ads[0].id)"));
}

TEST(IdRule, TheSameIdInTwoKindsIsAllowed) {
  // Placement 7 and template 7: ids are unique per kind only.
  std::string catalog =
      edit(kDesignExample, R"("templates": [{"id": 3,)", R"("templates": [{"id": 7,)");
  catalog = edit(catalog, R"("templateId": 3)", R"("templateId": 7)");
  EXPECT_NE(load_ok(catalog), nullptr);
}

TEST(IdRule, CreativeIdsAreUniqueAcrossAds) {
  EXPECT_THAT(
      errors_of(with_extra_ad(R"({"id": 1002, "advertiserId": 42, "placementIds": [7],
      "templateId": 3, "priority": "house", "weight": 1, "start": "2026-01-01T00:00:00Z",
      "creatives": [{"id": 2002, "contents": {"en": [{"key": "title", "value": "x"}]}}]})")),
      ElementsAre(
          "ads[1].creatives[0].id: duplicate creative id 2002 (also at ads[0].creatives[0].id)"));
}

TEST(ReferenceRule, PlacementIdsMustResolve) {
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"("placementIds": [7])", R"("placementIds": [7, 99])")),
      ElementsAre("ads[0].placementIds[1]: unknown placement id 99"));
}

TEST(ReferenceRule, PlacementIdsAreANonEmptyArrayWithoutDuplicates) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("placementIds": [7])", R"("placementIds": [])")),
              ElementsAre("ads[0].placementIds: must hold 1..1024 placement ids"));
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"("placementIds": [7])", R"("placementIds": [7, 7])")),
      ElementsAre("ads[0].placementIds[1]: duplicate placement id 7"));
}

TEST(ReferenceRule, AdvertiserIdMustResolve) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("advertiserId": 42)", R"("advertiserId": 43)")),
              ElementsAre("ads[0].advertiserId: unknown advertiser id 43"));
}

TEST(ReferenceRule, TemplateIdMustResolve) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("templateId": 3)", R"("templateId": 4)")),
              ElementsAre("ads[0].templateId: unknown template id 4"));
}

TEST(ReferenceRule, PriorityMustResolve) {
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"("priority": "standard")", R"("priority": "premium")")),
      ElementsAre("ads[0].priority: unknown priority \"premium\""));
}

TEST(KeyRule, PlacementKeysAreUnique) {
  const std::string catalog =
      edit(kDesignExample, R"("placements": [{"id": 7, "key": "home_top"}])",
           R"("placements": [{"id": 7, "key": "home_top"}, {"id": 8, "key": "home_top"}])");
  EXPECT_THAT(
      errors_of(catalog),
      ElementsAre(
          "placements[1].key: duplicate placement key \"home_top\" (also at placements[0].key)"));
}

TEST(KeyRule, PriorityKeysAreUnique) {
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"({"key": "house", "weight": 1})",
                     R"({"key": "standard", "weight": 1})")),
      ElementsAre(
          "priorities[2].key: duplicate priority key \"standard\" (also at priorities[1].key)"));
}

TEST(KeyRule, PriorityWeightsArePositiveAndDistinct) {
  EXPECT_THAT(
      errors_of(edit(kDesignExample, R"({"key": "house", "weight": 1})",
                     R"({"key": "house", "weight": 50})")),
      ElementsAre(
          "priorities[2].weight: same weight as priorities[1]: tiers need distinct weights"));
  EXPECT_THAT(errors_of(edit(kDesignExample, R"({"key": "house", "weight": 1})",
                             R"({"key": "house", "weight": 0})")),
              ElementsAre("priorities[2].weight: must be an integer in 1..1000000"));
}

}  // namespace
}  // namespace decision::catalog
