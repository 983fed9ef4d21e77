// Targeting over HTTP with the real GeoIP test database and GeoNames dumps of
// ../shared/fixtures: where the request comes from decides which ads it may see, and
// whether its user id may travel in tracking tokens.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"

namespace integration {
namespace {

constexpr int kTargetingRounds = 30;

struct GeoServer {
  explicit GeoServer(const std::vector<TestAd>& ads)
      : catalog("catalog.json", test_catalog_json({{1, "slot"}}, ads)),
        server(standard_flags({"--catalog=" + catalog.path(),
                               std::string("--geoip-db=") + GEOIP_FIXTURE_DIR + "/GeoIP2-City-Test.mmdb",
                               std::string("--geonames-dir=") + GEONAMES_FIXTURE_DIR})) {}
  TempFile catalog;
  ServerProcess server;
};

std::set<std::string> targeted_ads_served(const ServerProcess& server, const std::string& body) {
  return ads_served_over(server, body, kTargetingRounds);
}

const std::vector<TestAd> kGeoAds = {
    {.id = 1, .placement_ids = {1}, .targeting_json = R"({"geo":[2635167]})"},  // GB
    {.id = 2, .placement_ids = {1}, .targeting_json = R"({"geo":[2661886]})"},  // SE
    {.id = 3, .placement_ids = {1}},                                            // anywhere
};

TEST(Targeting, TheUsersIpPlacesTheRequestWhenItGivesNoGeo) {
  GeoServer fixture(kGeoAds);
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(targeted_ads_served(fixture.server, R"({"placements":[{"key":"slot","count":10}],"user":{"ip":"81.2.69.142"}})"),
            (std::set<std::string>{"ad_1", "ad_3"}));
  EXPECT_EQ(targeted_ads_served(fixture.server, R"({"placements":[{"key":"slot","count":10}],"user":{"ip":"89.160.20.112"}})"),
            (std::set<std::string>{"ad_2", "ad_3"}));
  EXPECT_EQ(targeted_ads_served(fixture.server, R"({"placements":[{"key":"slot","count":10}],"user":{"ip":"10.1.2.3"}})"),
            (std::set<std::string>{"ad_3"}));
}

TEST(Targeting, ARequestCityCountsAsItsCountry) {
  GeoServer fixture(kGeoAds);
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  // London (a city) reaches the GB ad, even from a Swedish IP: the request's geo wins.
  EXPECT_EQ(targeted_ads_served(fixture.server,
                       R"({"placements":[{"key":"slot","count":10,"targeting":{"geo":["2643743"]}}],)"
                       R"("user":{"ip":"89.160.20.112"}})"),
            (std::set<std::string>{"ad_1", "ad_3"}));
}

TEST(Targeting, LocationReachIsBothRadii) {
  const std::vector<TestAd> ads = {
      {.id = 1, .placement_ids = {1},
       .targeting_json = R"({"location":[{"lat":48.8566,"lon":2.3522,"radiusKm":10}]})"},
      {.id = 2, .placement_ids = {1}},
  };
  GeoServer fixture(ads);
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  // Versailles is about 17 km from the centre of Paris.
  EXPECT_EQ(targeted_ads_served(fixture.server,
                       R"({"placements":[{"key":"slot","count":10,"targeting":{"location":[{"lat":48.8049,"lon":2.1204}]}}]})"),
            (std::set<std::string>{"ad_2"}));
  EXPECT_EQ(targeted_ads_served(fixture.server,
                       R"({"placements":[{"key":"slot","count":10,"targeting":{"location":[{"latitude":48.8049,"longitude":2.1204,"radiusKm":8}]}}]})"),
            (std::set<std::string>{"ad_1", "ad_2"}));
}

TEST(Targeting, CustomRulesReadTheRequestsObjects) {
  const std::vector<TestAd> ads = {
      {.id = 1, .placement_ids = {1},
       .targeting_json = R"({"custom":"custom.age >= 18 && \"sports\" in custom.tags"})"},
      {.id = 2, .placement_ids = {1}, .targeting_json = R"({"custom":"device.os == 'ios'"})"},
      {.id = 3, .placement_ids = {1},
       .targeting_json = R"j({"custom":"user.segments.exists(s, s == 'vip')"})j"},
      {.id = 4, .placement_ids = {1}},
      {.id = 5, .placement_ids = {1}, .targeting_json = R"({"custom":"custom.age / custom.zero > 1"})"},
  };
  GeoServer fixture(ads);
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(targeted_ads_served(fixture.server,
                       R"({"placements":[{"key":"slot","count":10,"targeting":{"custom":{"age":21,"zero":0,"tags":["news","sports"]}}}],)"
                       R"("user":{"id":"u","segments":["vip"]},"device":{"os":"ios"}})"),
            (std::set<std::string>{"ad_1", "ad_2", "ad_3", "ad_4"}));
  // Too young, no device, no segments (reading them is an error): only the untargeted ad.
  // The division by zero is an error on every request.
  EXPECT_EQ(targeted_ads_served(fixture.server,
                       R"({"placements":[{"key":"slot","count":10,"targeting":{"custom":{"age":17,"zero":0,"tags":["sports"]}}}],)"
                       R"("user":{"id":"u"}})"),
            (std::set<std::string>{"ad_4"}));
  // Every rule ran and some ended in errors (the division always; the missing keys): the
  // page says so, so an operator sees a rule that never holds.
  const std::string page = scrape_metrics(fixture.server);
  const double evaluations = sum_samples(page, "decisiond_decision_custom_rule_evaluations_total", {}).value_or(0);
  const double errors = sum_samples(page, "decisiond_decision_custom_rule_errors_total", {}).value_or(0);
  EXPECT_GE(evaluations, 2.0 * kTargetingRounds * 4);  // 4 rules, 2 requests of kTargetingRounds each
  EXPECT_GE(errors, 2.0 * kTargetingRounds * 1 + kTargetingRounds * 2);
  EXPECT_LT(errors, evaluations);
}

}  // namespace
}  // namespace integration
