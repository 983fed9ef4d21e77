// Decisions by placement, as metrics count them: a bounded set of placement labels that
// keep their slots across catalog swaps (placement_labels.h), the slots each served
// catalog gives its placements, ads and placements by format, and the handler's counters.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "caps/cap_partition.h"
#include "decision/catalog/loader.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/user_state/owner_core_route.h"
#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/placement_labels.h"
#include "decision/endpoint/served_catalog.h"
#include "tests/unit/decision/endpoint/endpoint_test_clock.h"
#include "tests/unit/decision/response/response_fixtures.h"

namespace decision::endpoint {
namespace {

using testing::kNowNs;

// home_top holds two ads, sidebar one, footer none.
std::string catalog_text(std::string_view placements) {
  return std::string(R"json({
  "revision": "placement-metrics.1",
  "defaultLanguage": "en",
  "priorities": [{"key": "standard", "weight": 50}],
  "advertisers": [{"id": 1, "name": "One"}],
  "templates": [{"id": 3, "key": "card"}],
  "placements": )json") + std::string(placements) + R"json(,
  "ads": [
    {"id": 101, "advertiserId": 1, "placementIds": [7], "templateId": 3, "priority": "standard",
     "weight": 1, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 201, "contents": {"en": [{"key": "t", "value": "a"}]}}]},
    {"id": 102, "advertiserId": 1, "placementIds": [7, 8], "templateId": 3, "priority": "standard",
     "weight": 1, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 202, "contents": {"en": [{"key": "t", "value": "b"}]}}]}
  ]
})json";
}
constexpr std::string_view kFirstPlacements = R"([{"id": 7, "key": "home_top"}, {"id": 8, "key": "sidebar"}])";
// The same keys in another order, and a new one first.
constexpr std::string_view kSecondPlacements =
    R"([{"id": 9, "key": "footer"}, {"id": 8, "key": "sidebar"}, {"id": 7, "key": "home_top"}])";

std::shared_ptr<const ServedCatalog> served(std::string_view placements, PlacementLabels* labels) {
  catalog::LoadResult loaded = catalog::load_catalog(catalog_text(placements));
  EXPECT_TRUE(loaded.errors.empty()) << loaded.errors.front().to_string();
  return make_served_catalog(loaded.snapshot, labels);
}

uint8_t slot_of(const ServedCatalog& catalog, std::string_view key) {
  return catalog.placement_slots[*catalog.snapshot->index().placement_index(key)];
}

TEST(PlacementLabels, KeysTakeSlotsInTheOrderFirstSeenAndKeepThem) {
  PlacementLabels labels;
  EXPECT_EQ(labels.slot_for("home_top"), 0);
  EXPECT_EQ(labels.slot_for("sidebar"), 1);
  EXPECT_EQ(labels.slot_for("home_top"), 0);
  ASSERT_EQ(labels.labelled(), 2u);
  EXPECT_EQ(labels.key(0), "home_top");
  EXPECT_EQ(labels.key(1), "sidebar");
}

TEST(PlacementLabels, KeysPastTheBoundShareTheOtherSlot) {
  PlacementLabels labels;
  for (uint32_t i = 0; i < PlacementLabels::kMaxLabelled; ++i) {
    EXPECT_EQ(labels.slot_for("p" + std::to_string(i)), i);
  }
  EXPECT_EQ(labels.slot_for("one_too_many"), PlacementLabels::kOtherSlot);
  EXPECT_EQ(labels.slot_for("another"), PlacementLabels::kOtherSlot);
  EXPECT_EQ(labels.slot_for("p3"), 3);
  EXPECT_EQ(labels.labelled(), PlacementLabels::kMaxLabelled);
}

TEST(PlacementLabels, AKeySpelledLikeTheOtherLabelCountsAsOther) {
  PlacementLabels labels;
  EXPECT_EQ(labels.slot_for(PlacementLabels::kOtherLabel), PlacementLabels::kOtherSlot);
  EXPECT_EQ(labels.labelled(), 0u);
}

TEST(ServedCatalogSlots, APlacementKeepsItsSlotInEveryLaterCatalog) {
  PlacementLabels labels;
  const auto first = served(kFirstPlacements, &labels);
  const auto second = served(kSecondPlacements, &labels);
  EXPECT_EQ(slot_of(*first, "home_top"), 0);
  EXPECT_EQ(slot_of(*first, "sidebar"), 1);
  EXPECT_EQ(slot_of(*second, "home_top"), 0);
  EXPECT_EQ(slot_of(*second, "sidebar"), 1);
  EXPECT_EQ(slot_of(*second, "footer"), 2);
  EXPECT_EQ(labels.labelled(), 3u);
}

TEST(ServedCatalogSlots, WithoutLabelsEveryPlacementIsOther) {
  const auto catalog = served(kFirstPlacements, nullptr);
  EXPECT_EQ(slot_of(*catalog, "home_top"), PlacementLabels::kOtherSlot);
  EXPECT_EQ(slot_of(*catalog, "sidebar"), PlacementLabels::kOtherSlot);
}

TEST(ServedCatalogFormats, AdsAndPlacementsWithAdsAreCountedByFormat) {
  const auto catalog = served(kSecondPlacements, nullptr);
  EXPECT_EQ(catalog->ads_by_format, (FormatCounts{2, 0}));
  EXPECT_EQ(catalog->placements_by_format, (FormatCounts{2, 0}));  // footer has no ad

  catalog::LoadResult demo = catalog::load_catalog_file(DECISIOND_DEMO_CATALOG);
  ASSERT_TRUE(demo.errors.empty());
  const auto both = make_served_catalog(demo.snapshot);
  const size_t native = static_cast<size_t>(catalog::Format::kNative);
  const size_t video = static_cast<size_t>(catalog::Format::kVideo);
  EXPECT_EQ(both->ads_by_format[native] + both->ads_by_format[video], demo.snapshot->ads().size());
  EXPECT_GT(both->ads_by_format[video], 0u);
  EXPECT_EQ(both->placements_by_format[video], 1u);  // video_preroll
}

class PlacementCountersTest : public ::testing::Test {
 protected:
  DecisionHandler make_handler(std::shared_ptr<const ServedCatalog> catalog) {
    DecisionSettings settings;
    settings.base_url = "https://ads.example.test";
    settings.seed = 1;
    settings.process_start_wall_ns = kNowNs;
    routes_.push_back(std::make_unique<user_state::OwnerCoreRoute<DecisionAsk>>("/v1/decision", caps_, 0, nullptr,
                                                                                nullptr, 0));
    return DecisionHandler(clock_, 0, versions_, core_keys_, settings, std::move(catalog), *routes_.back(), nullptr,
                           nullptr);
  }
  int post(DecisionHandler& handler, std::string_view body) {
    request_ = http::Request{};
    request_.method = http::Method::kPost;
    request_.path = "/v1/decision";
    request_.headers[request_.header_count++] = {"Content-Type", "application/json"};
    request_.body = body;
    response_.reset();
    handler.handle(request_, response_);
    return response_.status();
  }
  const PlacementCounters& counted(const DecisionHandler& handler, uint8_t slot) {
    return handler.counters().by_placement[slot];
  }

  runtime::ManualClock clock_{kNowNs};
  api_versions::VersionTable versions_ = api_versions::VersionTable::built_in();
  tracking::KeyRing keys_ = response::testing::response_keys();
  tracking::CoreKeys core_keys_{keys_};  // the core's codecs, which every handler of a core shares
  caps::CapPartition caps_;
  std::vector<std::unique_ptr<user_state::UserStateRoute>> routes_;  // one per handler made
  PlacementLabels labels_;
  http::Request request_;
  http::Response response_;
};

TEST_F(PlacementCountersTest, EachPlacementAskedIsCountedWithItsFillAndCreatives) {
  DecisionHandler handler = make_handler(served(kSecondPlacements, &labels_));
  ASSERT_EQ(post(handler, R"({"placements":[{"key":"home_top","count":5},{"key":"footer"},{"key":"nope"}]})"), 200);
  ASSERT_EQ(post(handler, R"({"placements":[{"key":"sidebar"}]})"), 200);
  const uint8_t footer = 0, sidebar = 1, home_top = 2;
  EXPECT_EQ(counted(handler, home_top).requested.get(), 1u);
  EXPECT_EQ(counted(handler, home_top).filled.get(), 1u);
  EXPECT_EQ(counted(handler, home_top).creatives.get(), 2u);
  EXPECT_EQ(counted(handler, footer).requested.get(), 1u);
  EXPECT_EQ(counted(handler, footer).filled.get(), 0u);
  EXPECT_EQ(counted(handler, sidebar).creatives.get(), 1u);
  // An unknown key is no placement: counted apart (warning 20003), never as a label.
  EXPECT_EQ(counted(handler, PlacementLabels::kOtherSlot).requested.get(), 0u);
  EXPECT_EQ(handler.counters().unknown_placements.get(), 1u);
  EXPECT_EQ(labels_.labelled(), 3u);
}

TEST_F(PlacementCountersTest, APlacementIsCountedInTheSameSlotAfterACatalogSwap) {
  DecisionHandler handler = make_handler(served(kFirstPlacements, &labels_));
  ASSERT_EQ(post(handler, R"({"placements":[{"key":"home_top"}]})"), 200);
  // home_top moves from the first place of the catalog to the last; its counts stay its own.
  handler.set_catalog(served(kSecondPlacements, &labels_));
  ASSERT_EQ(post(handler, R"({"placements":[{"key":"home_top"}]})"), 200);
  ASSERT_EQ(post(handler, R"({"placements":[{"key":"footer"}]})"), 200);
  EXPECT_EQ(labels_.key(0), "home_top");
  EXPECT_EQ(counted(handler, 0).requested.get(), 2u);
  EXPECT_EQ(counted(handler, 1).requested.get(), 0u);  // sidebar
  EXPECT_EQ(labels_.key(2), "footer");
  EXPECT_EQ(counted(handler, 2).requested.get(), 1u);
}

TEST_F(PlacementCountersTest, RefusedRequestsCountNoPlacement) {
  DecisionHandler handler = make_handler(served(kFirstPlacements, &labels_));
  ASSERT_EQ(post(handler, R"({"placements":[{"key":"home_top","count":0}]})"), 422);
  EXPECT_EQ(counted(handler, 0).requested.get(), 0u);
}

}  // namespace
}  // namespace decision::endpoint
