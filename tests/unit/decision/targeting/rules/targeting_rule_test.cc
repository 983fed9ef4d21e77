// The rule selection asks, with the real GeoIP test database and GeoNames dumps.
#include "decision/targeting/rules/targeting_rule.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "decision/catalog/loader.h"
#include "decision/request/request_reader.h"
#include "decision/targeting/rules/gdpr_territory.h"
#include "tests/support/allocation_count.h"

namespace decision::targeting {
namespace {

constexpr int64_t kMondayNoonUtc = 1'795'435'200;  // 2026-11-23 12:00:00 UTC

const geo::GeoIpDatabase& geoip() {
  static const geo::GeoIpDatabase db =
      *geo::GeoIpDatabase::open(std::string(GEOIP_FIXTURE_DIR) + "/GeoIP2-City-Test.mmdb");
  return db;
}
const geo::GeoNamesHierarchy& geonames() {
  static const geo::GeoNamesHierarchy hierarchy = *geo::GeoNamesHierarchy::load_dir(GEONAMES_FIXTURE_DIR);
  return hierarchy;
}

catalog::Ad ad_with(catalog::Targeting targeting) {
  catalog::Ad ad;
  ad.targeting = std::move(targeting);
  return ad;
}

class TargetingRuleTest : public ::testing::Test {
 protected:
  // Reads body with 2025-11-01's options and starts the rule on its first placement.
  void start(const std::string& body, GeoSources sources = {&geonames(), &geoip()},
             bool destination_understood = true) {
    rule_.emplace(sources);
    const request::ReadResult read =
        reader_.read(body, {.format_understood = true, .destination_understood = true}, request_);
    ASSERT_TRUE(read.ok()) << body;
    destination_understood_ = destination_understood;
    restart();
  }
  // The same request again, with the catalog's programs as they now are.
  void restart() {
    rule_->begin_request(request_, kMondayNoonUtc, destination_understood_, programs_);
    rule_->begin_placement(request_.placements()[0]);
  }
  bool eligible(const catalog::Targeting& targeting) { return rule_->eligible(ad_with(targeting), 0); }
  // An ad at index 0 of a catalog of its own, its programs compiled as a served catalog's are.
  bool eligible_in_catalog(const catalog::Targeting& targeting) {
    const std::vector<catalog::Ad> ads = {ad_with(targeting)};
    programs_ = CustomPrograms(ads);
    restart();
    return rule_->eligible(ads[0], 0);
  }

  request::RequestReader reader_;
  request::DecisionRequest request_;
  CustomPrograms programs_;
  bool destination_understood_ = true;
  std::optional<TargetingRule> rule_;
};

catalog::Targeting geo(std::vector<catalog::Id> ids) {
  catalog::Targeting t;
  t.geo = std::move(ids);
  return t;
}

TEST_F(TargetingRuleTest, AnAdWithoutRulesIsAlwaysEligible) {
  start(R"({"placements":[{"key":"p"}]})");
  EXPECT_TRUE(eligible({}));
}

TEST_F(TargetingRuleTest, RequestGeoIsWidenedThroughTheHierarchy) {
  start(R"({"placements":[{"key":"p","targeting":{"geo":[2643743]}}]})");  // London
  EXPECT_TRUE(eligible(geo({2635167})));           // GB
  EXPECT_TRUE(eligible(geo({6269131})));           // England
  EXPECT_TRUE(eligible(geo({2643743, 3017382})));  // London or France
  EXPECT_FALSE(eligible(geo({3017382})));          // France
  start(R"({"placements":[{"key":"p","targeting":{"geo":[2643743]}}]})", {nullptr, &geoip()});
  EXPECT_FALSE(eligible(geo({2635167})));  // without the dumps a city is only itself
}

TEST_F(TargetingRuleTest, WithoutRequestGeoTheIpDecides) {
  start(R"({"placements":[{"key":"p"}],"user":{"ip":"89.160.20.112"}})");  // Linkoping, SE
  EXPECT_TRUE(eligible(geo({2661886})));
  EXPECT_TRUE(eligible(geo({2694762})));
  EXPECT_FALSE(eligible(geo({2635167})));
  start(R"({"placements":[{"key":"p","targeting":{"geo":[3017382]}}],"user":{"ip":"89.160.20.112"}})");
  EXPECT_FALSE(eligible(geo({2661886})));  // the request's own geo wins over the IP's
}

TEST_F(TargetingRuleTest, NoGeoKnownMeansGeoTargetedAdsAreNotEligible) {
  start(R"({"placements":[{"key":"p"}],"user":{"ip":"10.0.0.1"}})");
  EXPECT_FALSE(eligible(geo({2661886})));
  start(R"({"placements":[{"key":"p"}],"user":{"ip":"89.160.20.112"}})", {&geonames(), nullptr});
  EXPECT_FALSE(eligible(geo({2661886})));
}

TEST_F(TargetingRuleTest, DestinationOnlyFromTheVersionThatKnowsIt) {
  catalog::Targeting to_paris;
  to_paris.destination = {3017382};
  start(R"({"placements":[{"key":"p","targeting":{"destination":[2988507]}}]})");  // Paris -> FR
  EXPECT_TRUE(eligible(to_paris));
  start(R"({"placements":[{"key":"p"}]})");
  EXPECT_FALSE(eligible(to_paris));
  // 2025-01-01: the request's destination is ignored, so the ad is not eligible.
  start(R"({"placements":[{"key":"p","targeting":{"destination":[2988507]}}]})", {&geonames(), &geoip()}, false);
  EXPECT_FALSE(eligible(to_paris));
}

TEST_F(TargetingRuleTest, LocationAndDaypartsUseTheRequestAndTheUsersClock) {
  catalog::Targeting near_paris;
  near_paris.locations = {{48.8566, 2.3522, 10}};
  start(R"({"placements":[{"key":"p","targeting":{"location":[{"lat":48.80,"lon":2.35,"radius":1}]}}]})");
  EXPECT_TRUE(eligible(near_paris));
  start(R"({"placements":[{"key":"p"}]})");
  EXPECT_FALSE(eligible(near_paris));

  catalog::Targeting lunch;  // 12:00-14:00 local, every day
  lunch.dayparts = {catalog::Daypart{catalog::kEveryDay, 12 * 60, 14 * 60, "", {}}};
  start(R"({"placements":[{"key":"p"}]})");  // UTC: 12:00
  EXPECT_TRUE(eligible(lunch));
  start(R"({"placements":[{"key":"p"}],"user":{"timezone":"Asia/Tokyo"}})");  // 21:00
  EXPECT_FALSE(eligible(lunch));
  start(R"({"placements":[{"key":"p"}],"user":{"ip":"81.2.69.142"}})");  // London, GMT: 12:00
  EXPECT_TRUE(eligible(lunch));
  start(R"({"placements":[{"key":"p"}],"user":{"ip":"216.160.83.56"}})");  // Los Angeles: 04:00
  EXPECT_FALSE(eligible(lunch));
}

catalog::Targeting custom(std::string source) {
  catalog::Targeting t;
  t.custom = catalog::CustomExpression{std::move(source), "ads[0].targeting.custom"};
  return t;
}

TEST_F(TargetingRuleTest, CustomHoldsOnlyWhenTheExpressionIsTrue) {
  start(R"({"placements":[{"key":"p","targeting":{"custom":{"age":27}}}]})");
  EXPECT_TRUE(eligible_in_catalog(custom("custom.age >= 18")));
  EXPECT_FALSE(eligible_in_catalog(custom("custom.age < 18")));
  EXPECT_FALSE(eligible_in_catalog(custom("custom.missing == 1")));  // error: no such key
  EXPECT_FALSE(eligible_in_catalog(custom("custom.age / 0 == 1")));  // error: division
  EXPECT_FALSE(eligible_in_catalog(custom("custom.age")));           // an int, not true
  EXPECT_FALSE(eligible_in_catalog(custom("nobody == 1")));          // never compiled
}

TEST_F(TargetingRuleTest, CustomIsCheckedAfterTheCheaperRules) {
  start(R"({"placements":[{"key":"p","targeting":{"geo":[3017382],"custom":{"a":1}}}]})");
  catalog::Targeting both = custom("custom.a == 1");
  both.geo = {3017382};  // France
  EXPECT_TRUE(eligible_in_catalog(both));
  both.geo = {2635167};  // GB: geo fails, the expression alone would hold
  EXPECT_FALSE(eligible_in_catalog(both));
}

TEST_F(TargetingRuleTest, GdprDecidesWhetherTheUserIdMayBeUsed) {
  start(R"({"placements":[{"key":"p"}],"user":{"id":"u","ip":"216.160.83.56"}})");  // US
  EXPECT_FALSE(rule_->in_gdpr_territory());
  EXPECT_TRUE(rule_->user_id_usable());
  start(R"({"placements":[{"key":"p"}],"user":{"id":"u","ip":"89.160.20.112"}})");  // SE, EU flag
  EXPECT_TRUE(rule_->in_gdpr_territory());
  EXPECT_FALSE(rule_->user_id_usable());
  start(R"({"placements":[{"key":"p"}],"user":{"id":"u","ip":"89.160.20.112","consent":{"gdpr":true}}})");
  EXPECT_TRUE(rule_->user_id_usable());
  start(R"({"placements":[{"key":"p"}],"user":{"id":"u","ip":"81.2.69.142"}})");  // UK: no EU flag
  EXPECT_TRUE(rule_->in_gdpr_territory());
  start(R"({"placements":[{"key":"p","targeting":{"geo":[2988507]}}],"user":{"id":"u"}})");  // Paris
  EXPECT_TRUE(rule_->in_gdpr_territory());
  start(R"({"placements":[{"key":"p"}],"user":{"id":"u","consent":{"gdpr":false}}})");
  EXPECT_FALSE(rule_->user_id_usable());
  start(R"({"placements":[{"key":"p"}]})");
  EXPECT_FALSE(rule_->user_id_usable());  // no id
}

// Published TC strings (LiveRamp/iabconsent's fixtures, also in tcf_consent_test.cc): the
// first consents to purposes 1, 3, 4 and 7, the second to none.
constexpr std::string_view kPurpose1Granted =
    "COvzTO5OvzTO5BRAAAENAPCoALIAADgAAAAAAewAwABAAlAB6ABBFADBQAQA9hAAAcAA";
constexpr std::string_view kNoPurposeGranted =
    "COvzTO5OvzTO5BZAFMENAPCgAAAAAAAAAAwIFoEUQQgAIQwgIwQABAEAAAAOIAACAIAAAAQAIAgEAACEAAAAAgAQBAAA"
    "AAAAGBAAgAAAAAAAFAAECAAAgAAQARAEQAAAAAJAAIAAgAAAYQEAAAQmAgBC3ZAYzUwLQIoghAAQhhARggACAIAAAAcQ"
    "AAEAQAAAAgAQBAIAAEIAAAABAAgCAAAAAAAMCABAAAAAAAAKAAIEAABAAAgAiAIgAAAAASAAQABAAAAwgIAAAhMBACFu"
    "yAxmpgAA";

std::string user_with_consent(std::string_view ip, std::string_view tc_string) {
  return std::string(R"({"placements":[{"key":"p"}],"user":{"id":"u","ip":")") + std::string(ip) +
         R"(","consent":{"gdpr":")" + std::string(tc_string) + R"("}}})";
}

TEST_F(TargetingRuleTest, ATcStringConsentsThroughPurposeOne) {
  start(user_with_consent("89.160.20.112", kPurpose1Granted));  // SE
  EXPECT_TRUE(rule_->in_gdpr_territory());
  EXPECT_TRUE(rule_->user_id_usable());
  start(user_with_consent("89.160.20.112", kNoPurposeGranted));
  EXPECT_FALSE(rule_->user_id_usable());
  // Outside the territory a TC string still speaks: refusing purpose 1 is a refusal.
  start(user_with_consent("216.160.83.56", kNoPurposeGranted));  // US
  EXPECT_FALSE(rule_->in_gdpr_territory());
  EXPECT_FALSE(rule_->user_id_usable());
  start(user_with_consent("216.160.83.56", kPurpose1Granted));
  EXPECT_TRUE(rule_->user_id_usable());
}

TEST(GdprTerritory, IdsMatchTheGeoNamesCountryTable) {
  const geo::GeoNamesHierarchy& hierarchy = geonames();
  EXPECT_EQ(gdpr_countries().size(), 31u);
  for (const GdprCountry& country : gdpr_countries()) {
    EXPECT_EQ(hierarchy.country_of_code(country.iso2), country.geoname_id) << country.iso2;
  }
  EXPECT_FALSE(is_gdpr_country(6252001));  // US
  EXPECT_FALSE(is_gdpr_country(2658434));  // CH
}

TEST_F(TargetingRuleTest, EvaluatingAllocatesNothing) {
  const std::string body =
      R"({"placements":[{"key":"p","targeting":{"geo":[2643743],"location":[{"lat":51.5,"lon":-0.12}],)"
      R"("custom":{"tags":["a","b"]}}}],"user":{"id":"u","ip":"81.2.69.142"},"device":{"os":"ios"}})";
  start(body);
  catalog::Targeting all = geo({2635167});
  all.locations = {{51.5, -0.12, 5}};
  all.dayparts = {catalog::Daypart{catalog::kEveryDay, 0, 1440, "", {}}};
  all.custom = catalog::CustomExpression{
      R"(custom.tags.exists(t, t == "b") && user.id == "u" && device.os == "ios")", "ads[0]"};
  const std::vector<catalog::Ad> ads = {ad_with(all)};
  const catalog::Ad& ad = ads[0];
  programs_ = CustomPrograms(ads);
  restart();
  bool held = rule_->eligible(ad, 0);  // warm: the first parse of user and device sizes their documents
  const uint64_t allocations = decision::testing::allocations_while([&] {
    for (int i = 0; i < 100; ++i) {
      rule_->begin_request(request_, kMondayNoonUtc, true, programs_);
      rule_->begin_placement(request_.placements()[0]);
      held = held && rule_->eligible(ad, 0);
    }
  });
  EXPECT_TRUE(held);
  EXPECT_EQ(allocations, 0u);
}

}  // namespace
}  // namespace decision::targeting
