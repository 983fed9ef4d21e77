// docs/decision-response.md, "Candidates and selection", on a small catalog: flight dates,
// filters, tiers strictly by weight, weighted rotation within a tier, one creative per ad, no
// repeats.
#include "decision/selection/ad_selector.h"

#include <array>
#include <map>

#include "absl/time/time.h"
#include "decision/catalog/loader.h"
#include "gtest/gtest.h"

namespace decision::selection {
namespace {

constexpr char kCatalog[] = R"({
  "revision": "selection-test", "defaultLanguage": "en",
  "priorities": [{"key": "sponsorship", "weight": 100}, {"key": "standard", "weight": 50},
                 {"key": "house", "weight": 1}],
  "advertisers": [{"id": 1, "name": "One"}, {"id": 2, "name": "Two"}],
  "templates": [{"id": 1, "key": "card"}, {"id": 2, "key": "banner"}],
  "placements": [{"id": 1, "key": "p"}, {"id": 2, "key": "q"}],
  "ads": [
    {"id": 1, "advertiserId": 1, "placementIds": [1], "templateId": 1, "priority": "sponsorship",
     "weight": 1, "start": "2026-01-01T00:00:00Z", "end": "2026-06-01T00:00:00Z",
     "creatives": [{"id": 11, "contents": {"en": [{"key": "title", "value": "a"}]}}]},
    {"id": 2, "advertiserId": 1, "placementIds": [1], "templateId": 1, "priority": "standard",
     "weight": 10, "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 21, "contents": {"en": [{"key": "title", "value": "b"}]}},
                   {"id": 22, "contents": {"en": [{"key": "title", "value": "c"}]}}]},
    {"id": 3, "advertiserId": 1, "placementIds": [1], "templateId": 2, "priority": "standard",
     "weight": 30, "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 31, "contents": {"en": [{"key": "title", "value": "d"}]}}]},
    {"id": 4, "advertiserId": 2, "placementIds": [1, 2], "templateId": 1, "priority": "standard",
     "weight": 60, "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 41, "contents": {"en": [{"key": "title", "value": "e"}]}}]},
    {"id": 5, "advertiserId": 1, "placementIds": [1], "templateId": 1, "priority": "house",
     "weight": 1, "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 51, "contents": {"en": [{"key": "title", "value": "f"}]}}]},
    {"id": 6, "advertiserId": 1, "placementIds": [1], "templateId": 1, "priority": "standard",
     "weight": 5, "format": "video", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 61, "contents": {"en": [{"key": "title", "value": "g"}]},
       "video": {"delivery": "vast_xml", "duration": 30,
                 "mediaFiles": [{"url": "https://cdn.example.com/v.mp4", "type": "video/mp4",
                                 "width": 640, "height": 360}]}}]}
  ]})";

int64_t unix_s(const char* rfc3339) {
  absl::Time t;
  std::string error;
  EXPECT_TRUE(absl::ParseTime(absl::RFC3339_full, rfc3339, &t, &error)) << error;
  return absl::ToUnixSeconds(t);
}

class AdSelectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const catalog::LoadResult loaded = catalog::load_catalog(kCatalog);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    snapshot_ = loaded.snapshot;
    placement_ = *snapshot_->index().placement_index("p");
  }

  // The catalog id of each pick.
  std::vector<uint64_t> pick(uint32_t count, const PlacementFilter& filter, int64_t now_s,
                             EligibilityRule* rule = nullptr) {
    std::array<Pick, 10> out{};
    chosen_.clear();
    const uint32_t n = selector_.select(*snapshot_, placement_, filter, now_s, rule, chosen_,
                                        std::span<Pick>(out.data(), count));
    std::vector<uint64_t> ids;
    for (uint32_t i = 0; i < n; ++i) ids.push_back(snapshot_->ads()[out[i].ad_index].id);
    return ids;
  }

  std::shared_ptr<const catalog::CatalogSnapshot> snapshot_;
  uint32_t placement_ = 0;
  CoreRandom random_{12345, 0};
  AdSelector selector_{random_};
  ChosenAds chosen_;
  const int64_t spring_ = unix_s("2026-03-01T00:00:00Z");  // ad 1 in flight
  const int64_t summer_ = unix_s("2026-07-01T00:00:00Z");  // ad 1 ended
};

TEST_F(AdSelectorTest, HeavierTierAlwaysWinsWhileItHasACandidate) {
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(pick(1, {}, spring_), std::vector<uint64_t>{1});
}

TEST_F(AdSelectorTest, LighterTiersFillWhatTheHeavierTierCannot) {
  for (int i = 0; i < 200; ++i) {
    const std::vector<uint64_t> ids = pick(5, {}, spring_);
    ASSERT_EQ(ids.size(), 5u);
    EXPECT_EQ(ids[0], 1u);     // sponsorship
    EXPECT_EQ(ids[4], 5u);     // house, after the three native standard ads
    for (int k = 1; k <= 3; ++k) EXPECT_TRUE(ids[k] >= 2 && ids[k] <= 4) << ids[k];
  }
}

TEST_F(AdSelectorTest, AdOutsideItsFlightIsNotACandidate) {
  for (int i = 0; i < 500; ++i) {
    for (uint64_t id : pick(10, {}, summer_)) EXPECT_NE(id, 1u);
  }
  EXPECT_TRUE(pick(10, {}, unix_s("2025-12-31T23:59:59Z")).empty()) << "no ad has started";
}

TEST_F(AdSelectorTest, FlightEndIsExclusive) {
  for (uint64_t id : pick(10, {}, unix_s("2026-06-01T00:00:00Z"))) EXPECT_NE(id, 1u);
}

TEST_F(AdSelectorTest, RotationWithinATierFollowsTheWeights) {
  std::map<uint64_t, int> firsts;
  constexpr int kDraws = 100'000;
  for (int i = 0; i < kDraws; ++i) ++firsts[pick(1, {}, summer_).at(0)];
  EXPECT_NEAR(firsts[2] / double{kDraws}, 0.10, 0.01);
  EXPECT_NEAR(firsts[3] / double{kDraws}, 0.30, 0.01);
  EXPECT_NEAR(firsts[4] / double{kDraws}, 0.60, 0.01);
  EXPECT_EQ(firsts.size(), 3u) << "only the standard tier's native ads";
}

TEST_F(AdSelectorTest, AdvertiserFilterKeepsOnlyThatAdvertisersAds) {
  PlacementFilter filter;
  filter.advertiser_id = 2;
  EXPECT_EQ(pick(10, filter, spring_), std::vector<uint64_t>{4});
}

TEST_F(AdSelectorTest, TemplateFilterKeepsOnlyThatTemplatesAds) {
  PlacementFilter filter;
  filter.template_id = 2;
  EXPECT_EQ(pick(10, filter, spring_), std::vector<uint64_t>{3});
}

TEST_F(AdSelectorTest, VideoFormatFilterKeepsOnlyVideoAds) {
  PlacementFilter filter;
  filter.format = catalog::FormatFilter::kVideo;
  EXPECT_EQ(pick(10, filter, spring_), std::vector<uint64_t>{6});
}

TEST_F(AdSelectorTest, AdChosenForAnEarlierPlacementIsNotChosenAgain) {
  std::array<Pick, 10> out{};
  chosen_.clear();
  chosen_.add(*snapshot_->ad_index(4));
  for (int i = 0; i < 200; ++i) {
    ChosenAds chosen = chosen_;
    const uint32_t n = selector_.select(*snapshot_, placement_, {}, summer_, nullptr, chosen, out);
    for (uint32_t k = 0; k < n; ++k) EXPECT_NE(snapshot_->ads()[out[k].ad_index].id, 4u);
  }
}

TEST_F(AdSelectorTest, NoAdIsPickedTwiceInOnePlacement) {
  for (int i = 0; i < 500; ++i) {
    std::vector<uint64_t> ids = pick(10, {}, spring_);
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
  }
}

TEST_F(AdSelectorTest, CountBeyondTheCandidatesReturnsEveryEligibleAd) {
  EXPECT_EQ(pick(10, {}, spring_).size(), 5u);  // ads 1 to 5; ad 6 is video
}

TEST_F(AdSelectorTest, OneCreativeIsChosenAtRandomAmongTheAds) {
  PlacementFilter filter;
  filter.template_id = 1;
  filter.advertiser_id = 1;
  std::map<uint32_t, int> creatives;
  constexpr int kDraws = 20'000;
  std::array<Pick, 1> out{};
  const uint32_t ad2 = *snapshot_->ad_index(2);
  for (int i = 0; i < kDraws; ++i) {
    ChosenAds chosen;
    for (uint64_t other : {1, 5}) chosen.add(*snapshot_->ad_index(other));
    ASSERT_EQ(selector_.select(*snapshot_, placement_, filter, spring_, nullptr, chosen, out), 1u);
    ASSERT_EQ(out[0].ad_index, ad2);
    ++creatives[out[0].creative_index];
  }
  EXPECT_NEAR(creatives[0] / double{kDraws}, 0.5, 0.02);
  EXPECT_NEAR(creatives[1] / double{kDraws}, 0.5, 0.02);
}

class RefuseAd final : public EligibilityRule {
 public:
  explicit RefuseAd(uint64_t id) : id_(id) {}
  bool eligible(const catalog::Ad& ad, uint32_t) override { return ad.id != id_; }

 private:
  uint64_t id_;
};

TEST_F(AdSelectorTest, EligibilityRuleCanExcludeAnAd) {
  RefuseAd refuse_sponsor(1);
  for (int i = 0; i < 200; ++i) {
    const std::vector<uint64_t> ids = pick(1, {}, spring_, &refuse_sponsor);
    ASSERT_EQ(ids.size(), 1u);
    EXPECT_NE(ids[0], 1u);
  }
}

}  // namespace
}  // namespace decision::selection
