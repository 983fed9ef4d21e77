// Which ads a decision may return (docs/decision-response.md, "Candidates and selection"):
// tiers heaviest first, the advertiserId and templateId filters, flight dates, targeting that
// cannot hold, and native ads only under 2025-01-01. Each test writes the catalog it reasons
// about.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/utc_days.h"

namespace integration {
namespace {

// Enough draws that an ad wrongly eligible would show up (each of them has a fair chance
// per draw), without any test depending on a particular draw.
constexpr int kSelectionRounds = 40;

// A server on a catalog of one placement "slot" (id 1) and the given ads.
struct CatalogServer {
  explicit CatalogServer(const std::vector<TestAd>& ads)
      : catalog("catalog.json", test_catalog_json({{1, "slot"}}, ads)),
        server(standard_flags({"--catalog=" + catalog.path()})) {}
  TempFile catalog;
  ServerProcess server;
};

// Every ad id served over kSelectionRounds decisions of one request body.
std::set<std::string> ads_served(const ServerProcess& server, const std::string& body,
                                 const DecisionHeaders& headers = {}) {
  return ads_served_over(server, body, kSelectionRounds, headers);
}

TEST(Tiers, SponsorshipAdAlwaysWinsACountOfOne) {
  std::vector<TestAd> ads = {{.id = 1, .placement_ids = {1}, .priority = "sponsorship", .weight = 1}};
  for (uint64_t id = 2; id <= 6; ++id) ads.push_back({.id = id, .placement_ids = {1}, .weight = 1000});
  CatalogServer fixture(ads);
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_served(fixture.server, R"({"placements":[{"key":"slot","count":1}]})"),
            std::set<std::string>{"ad_1"});
}

TEST(Tiers, CreativesComeHeaviestTierFirst) {
  const std::vector<TestAd> ads = {
      {.id = 1, .placement_ids = {1}, .priority = "house", .weight = 1000},
      {.id = 2, .placement_ids = {1}, .priority = "standard", .weight = 1},
      {.id = 3, .placement_ids = {1}, .priority = "sponsorship", .weight = 1},
      {.id = 4, .placement_ids = {1}, .priority = "house", .weight = 1000},
      {.id = 5, .placement_ids = {1}, .priority = "standard", .weight = 1},
      {.id = 6, .placement_ids = {1}, .priority = "sponsorship", .weight = 1},
      {.id = 7, .placement_ids = {1}, .priority = "standard", .weight = 1},
  };
  CatalogServer fixture(ads);
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  DecisionClient client(fixture.server);
  const std::vector<std::string> expected = {"sponsorship", "sponsorship", "standard", "standard",
                                             "standard",    "house",       "house"};
  for (int round = 0; round < kSelectionRounds; ++round) {
    const CurlReply reply = client.decide(R"({"placements":[{"key":"slot","count":7}]})");
    DecisionReply decision;
    ASSERT_TRUE(ReadDecision(reply.body, decision));
    ASSERT_EQ(decision.data.size(), 1u);
    std::vector<std::string> priorities;
    for (const ServedCreative& creative : decision.data[0].creatives) priorities.push_back(creative.priority);
    EXPECT_EQ(priorities, expected) << "round " << round << ": " << reply.body;
  }
}

// Ads 1-6 over advertisers 1-3 and templates 1-2: ad n has advertiser (n-1)%3+1 and
// template (n-1)%2+1.
std::vector<TestAd> mixed_ads() {
  std::vector<TestAd> ads;
  for (uint64_t id = 1; id <= 6; ++id) {
    ads.push_back({.id = id, .placement_ids = {1}, .advertiser_id = (id - 1) % 3 + 1, .template_id = (id - 1) % 2 + 1});
  }
  return ads;
}

TEST(Filters, AdvertiserIdKeepsOnlyThatAdvertisersAds) {
  CatalogServer fixture(mixed_ads());
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  DecisionClient client(fixture.server);
  const CurlReply reply = client.decide(R"({"placements":[{"key":"slot","count":10,"advertiserId":"advertiser_2"}]})");
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.data.size(), 1u);
  std::set<std::string> ids;
  for (const ServedCreative& creative : decision.data[0].creatives) {
    EXPECT_EQ(creative.advertiser_id, "advertiser_2") << reply.body;
    ids.insert(creative.ad_id);
  }
  EXPECT_EQ(ids, (std::set<std::string>{"ad_2", "ad_5"}));

  // An advertiser with no ad here: no creatives, and the placement is still a known one.
  const CurlReply none = client.decide(R"({"placements":[{"key":"slot","count":10,"advertiserId":"advertiser_99"}]})");
  ASSERT_TRUE(ReadDecision(none.body, decision));
  ASSERT_EQ(decision.data.size(), 1u);
  EXPECT_TRUE(decision.data[0].creatives.empty()) << none.body;
  for (int64_t code : decision.warning_codes()) EXPECT_NE(code, 20003) << none.body;
}

TEST(Filters, TemplateIdKeepsOnlyAdsOfThatTemplate) {
  CatalogServer fixture(mixed_ads());
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  DecisionClient client(fixture.server);
  const CurlReply reply = client.decide(R"({"placements":[{"key":"slot","count":10,"templateId":"template_2"}]})");
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.data.size(), 1u);
  std::set<std::string> ids;
  for (const ServedCreative& creative : decision.data[0].creatives) {
    EXPECT_EQ(creative.template_id, "template_2") << reply.body;
    ids.insert(creative.ad_id);
  }
  EXPECT_EQ(ids, (std::set<std::string>{"ad_2", "ad_4", "ad_6"}));
}

TEST(Filters, AdvertiserIdAndTemplateIdTogetherKeepAdsMatchingBoth) {
  CatalogServer fixture(mixed_ads());
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_served(fixture.server,
                       R"({"placements":[{"key":"slot","count":10,"advertiserId":"advertiser_1","templateId":"template_2"}]})"),
            std::set<std::string>{"ad_4"});
}

TEST(Flight, AdsOutsideTheirFlightDatesAreNeverServed) {
  const std::vector<TestAd> ads = {
      {.id = 1, .placement_ids = {1}, .start = utc_midnight(30)},                              // not started
      {.id = 2, .placement_ids = {1}, .start = utc_midnight(-60), .end = utc_midnight(-30)},  // ended
      {.id = 3, .placement_ids = {1}, .start = utc_midnight(-60), .end = utc_midnight(30)},   // running
      {.id = 4, .placement_ids = {1}, .start = utc_midnight(-1)},                              // running, open-ended
      {.id = 5, .placement_ids = {1}, .start = utc_midnight(365), .end = utc_midnight(400)},  // not started
  };
  CatalogServer fixture(ads);
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_served(fixture.server, R"({"placements":[{"key":"slot","count":10}]})"),
            (std::set<std::string>{"ad_3", "ad_4"}));
}

// docs/targeting.md, "Geo": with no geo known for the request, a geo-targeted ad is not
// eligible.
TEST(Targeting, GeoTargetedAdIsNotServedWhenNoGeoIsKnown) {
  const std::vector<TestAd> ads = {
      {.id = 1, .placement_ids = {1}, .weight = 1000, .targeting_json = R"({"geo":[2988507]})"},
      {.id = 2, .placement_ids = {1}},
  };
  CatalogServer fixture(ads);
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_served(fixture.server, R"({"placements":[{"key":"slot","count":10}]})"),
            std::set<std::string>{"ad_2"});
}

// docs/video.md: under 2025-01-01 only native ads are candidates and `format` is
// ignored. The demo catalog's video_preroll holds a video ad only.
TEST(Formats, Version20250101ServesNativeAdsOnlyAndIgnoresFormat) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide(
      R"({"placements":[{"key":"video_preroll","count":5},{"key":"home_top","count":5,"format":"video"}]})",
      {.version = "2025-01-01"});
  ASSERT_EQ(reply.status, 200) << reply.body;
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.data.size(), 2u);
  EXPECT_TRUE(decision.data[0].creatives.empty()) << reply.body;
  EXPECT_FALSE(decision.data[1].creatives.empty()) << "format is not a filter under 2025-01-01: " << reply.body;
}

TEST(Formats, NativeFormatFilterServesNativeAdsUnder20251101) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide(R"({"placements":[{"key":"home_top","count":5,"format":"native"}]})",
                                        {.version = "2025-11-01"});
  ASSERT_EQ(reply.status, 200) << reply.body;
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.data.size(), 1u);
  EXPECT_FALSE(decision.data[0].creatives.empty()) << reply.body;
}

}  // namespace
}  // namespace integration
