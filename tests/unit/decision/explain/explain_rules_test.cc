// One test per rule an explain can name (docs/explain.md "Rules"): the rule, and the
// details that say why.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/decision/explain/explain_fixture.h"

namespace decision::explain::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr std::string_view kRules = kRulesBody;

TEST_F(ExplainTest, EveryCandidateOfThePlacementIsListedInTierOrderWithItsOutcome) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, R"({"placements":[{"key":"home_top","count":10},{"key":"rules","count":10}]})",
                            kV20251101);
  std::vector<std::string> listed;
  for (simdjson::dom::element c : root["data"]["placements"].at(0)["candidates"].get_array()) {
    listed.emplace_back(std::string_view(c["ad"].get_string()));
  }
  EXPECT_THAT(listed, ElementsAre("ad_101", "ad_102", "ad_103"));  // sponsorship first
  EXPECT_THAT(served_ads(root, 0), UnorderedElementsAre("ad_101", "ad_102", "ad_103"));
  EXPECT_EQ(served_ads(root, 0)[0], "ad_101");
  EXPECT_EQ(outcome_of(root, 0, "ad_101"), "served");
  EXPECT_EQ(rule_of(root, 0, "ad_101"), "null");
  // Under 2025-11-01 without `format` both formats are served: the video ad too.
  EXPECT_THAT(served_ads(root, 1), UnorderedElementsAre("ad_301", "ad_309", "ad_311"));
  EXPECT_EQ(root["data"]["placements"].at(1)["candidates"].get_array().size(), 10u);
}

TEST_F(ExplainTest, FlightDatesBeforeTheStart) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, kRules);
  EXPECT_EQ(outcome_of(root, 0, "ad_303"), "excluded");
  EXPECT_EQ(rule_of(root, 0, "ad_303"),
            R"({"name":"flight_dates","state":"not_started","start":"2027-01-01T00:00:00Z","end":null,)"
            R"("now":"2026-11-27T00:00:00Z"})");
}

TEST_F(ExplainTest, FlightDatesAfterTheEnd) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, kRules);
  EXPECT_EQ(rule_of(root, 0, "ad_302"),
            R"({"name":"flight_dates","state":"ended","start":"2026-01-01T00:00:00Z",)"
            R"("end":"2026-02-01T00:00:00Z","now":"2026-11-27T00:00:00Z"})");
}

TEST_F(ExplainTest, AdvertiserFilter) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"advertiserId":"advertiser_2"}]})");
  EXPECT_EQ(rule_of(root, 0, "ad_301"), R"({"name":"advertiser","requested":"advertiser_2","adAdvertiser":"advertiser_1"})");
  EXPECT_THAT(served_ads(root, 0), ElementsAre());
}

TEST_F(ExplainTest, TemplateFilter) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"templateId":"template_4"}]})");
  EXPECT_EQ(rule_of(root, 0, "ad_301"), R"({"name":"template","requested":"template_4","adTemplate":"template_3"})");
}

TEST_F(ExplainTest, FormatFilterListsTheOtherFormatAsExcluded) {
  auto handler = make_explainer(1);
  // 2025-01-01 serves native ads only: the video ad is listed, excluded by format, and
  // would otherwise have been eligible.
  auto root = explain(*handler, kRules);
  EXPECT_EQ(rule_of(root, 0, "ad_309"),
            R"({"name":"format","adFormat":"video","served":"native","because":"version","otherwise":null})");
  // 2025-11-01 asked for native: the request's filter.
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"format":"native"}]})", kV20251101);
  EXPECT_EQ(rule_of(root, 0, "ad_309"),
            R"({"name":"format","adFormat":"video","served":"native","because":"format_filter","otherwise":null})");
  // Asked for video: the native ads are the excluded ones, each with what would come next.
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"format":"video"}]})", kV20251101);
  EXPECT_THAT(served_ads(root, 0), ElementsAre("ad_309"));
  EXPECT_EQ(rule_of(root, 0, "ad_301"),
            R"({"name":"format","adFormat":"native","served":"video","because":"format_filter","otherwise":null})");
  EXPECT_THAT(rule_of(root, 0, "ad_304"), HasSubstr(R"("otherwise":{"name":"geo")"));
}

TEST_F(ExplainTest, GeoShowsTheRequestsSetAndTheAds) {
  auto handler = make_explainer(1);
  auto root = explain(*handler, kRules);
  EXPECT_EQ(rule_of(root, 0, "ad_304"),
            R"({"name":"geo","requestGeo":[],"requestGeoSource":"none","adGeo":[3017382]})");
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"geo":[2635167,2510769]}}]})");
  EXPECT_EQ(rule_of(root, 0, "ad_304"),
            R"({"name":"geo","requestGeo":[2510769,2635167],"requestGeoSource":"request","adGeo":[3017382]})");
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"geo":[3017382]}}]})");
  EXPECT_EQ(outcome_of(root, 0, "ad_304"), "served");
}

TEST_F(ExplainTest, LocationShowsTheNearestPointAndTheReach) {
  auto handler = make_explainer(1);
  // Lyon, 5 km around: about 392 km from the ad's 25 km circle around Paris.
  const auto root = explain(
      *handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"location":[{"lat":45.764,"lon":4.8357,"radius":5}]}}]})");
  const simdjson::dom::element rule = candidate(root, 0, "ad_305")["rule"];
  EXPECT_EQ(std::string_view(rule["name"]), "location");
  EXPECT_EQ(json_of(rule["requestPoints"]), R"([{"lat":45.764,"lon":4.8357,"radiusKm":5}])");
  const simdjson::dom::element circle = rule["adCircles"].at(0);
  EXPECT_EQ(double(circle["radiusKm"]), 25.0);
  EXPECT_EQ(uint64_t(circle["nearest"]["point"]), 0u);
  EXPECT_NEAR(double(circle["nearest"]["distanceKm"]), 392.0, 1.0);
  EXPECT_EQ(double(circle["nearest"]["withinKm"]), 30.0);
}

TEST_F(ExplainTest, CustomWithValueFalse) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"custom":{"tier":"silver"}}}]})");
  EXPECT_EQ(rule_of(root, 0, "ad_306"),
            R"({"name":"custom","expression":"custom.tier == 'gold'","value":false,"error":null})");
}

TEST_F(ExplainTest, CustomWithACelError) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"custom":{"level":3}}}]})");
  EXPECT_EQ(rule_of(root, 0, "ad_306"),
            R"({"name":"custom","expression":"custom.tier == 'gold'","value":null,"error":"1:8: no such key"})");
  // And holding: served.
  EXPECT_EQ(outcome_of(explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"custom":{"tier":"gold"}}}]})"),
                       0, "ad_306"),
            "served");
}

TEST_F(ExplainTest, DaypartShowsTheLocalTimeItRead) {
  auto handler = make_explainer(1);
  // Friday 00:00 UTC, no zone given: outside 08:00-20:00.
  auto root = explain(*handler, kRules);
  EXPECT_EQ(rule_of(root, 0, "ad_307"),
            R"({"name":"daypart","dayparts":[{"days":["mon","tue","wed","thu","fri"],"start":"08:00","end":"20:00",)"
            R"("zone":"UTC","zoneSource":"utc","localTime":"2026-11-27T00:00:00+00:00","localWeekday":"fri","holds":false}]})");
  // In Tokyo it is Friday 09:00: inside.
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10}],"user":{"timezone":"Asia/Tokyo"}})");
  EXPECT_EQ(outcome_of(root, 0, "ad_307"), "served");
  EXPECT_EQ(json_of(root["data"]["request"]["timeZone"]),
            R"({"name":"Asia/Tokyo","source":"user.timezone","localTime":"2026-11-27T09:00:00+09:00"})");
  // In Los Angeles it is Thursday 16:00: inside too.
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10}],"user":{"timezone":"America/Los_Angeles"}})");
  EXPECT_EQ(outcome_of(root, 0, "ad_307"), "served");
}

TEST_F(ExplainTest, DestinationShowsWhatTheRequestAskedAndWhetherTheVersionReadsIt) {
  auto handler = make_explainer(1);
  auto root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"destination":[2988507]}}]})",
                      kV20251101);
  EXPECT_EQ(rule_of(root, 0, "ad_308"),
            R"({"name":"destination","requestDestination":[2988507],"destinationRead":true,"adDestination":[2267057]})");
  // 2025-01-01 cannot state a destination: ignored, so not eligible.
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"destination":[2267057]}}]})");
  EXPECT_EQ(rule_of(root, 0, "ad_308"),
            R"({"name":"destination","requestDestination":[],"destinationRead":false,"adDestination":[2267057]})");
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"destination":[2267057]}}]})",
                 kV20251101);
  EXPECT_EQ(outcome_of(root, 0, "ad_308"), "served");
}

TEST_F(ExplainTest, FrequencyCapShowsTheCountsItSaw) {
  auto handler = make_explainer(1);
  caps_.record(caps::user_key("u1"), 311, kCaps311, kNowS - 60);
  const auto root = explain(*handler, R"({"placements":[{"key":"rules","count":10}],"user":{"id":"u1"}})");
  EXPECT_EQ(rule_of(root, 0, "ad_311"),
            R"({"name":"frequency_cap","caps":[{"impressions":1,"windowSeconds":3600,"counted":1,"pending":0,"exact":true,"holds":false},)"
            R"({"impressions":6,"windowSeconds":86400,"counted":1,"pending":0,"exact":false,"holds":true}]})");
  EXPECT_EQ(json_of(root["data"]["request"]["frequencyCaps"]), R"({"applied":true,"why":"user_id_usable"})");
  // Another user has no impressions: served, with the counts it read.
  const auto other = explain(*handler, R"({"placements":[{"key":"rules","count":10}],"user":{"id":"u2"}})");
  EXPECT_EQ(outcome_of(other, 0, "ad_311"), "served");
  EXPECT_EQ(json_of(candidate(other, 0, "ad_311")["frequencyCaps"]),
            R"({"applied":true,"why":"user_id_usable","caps":[{"impressions":1,"windowSeconds":3600,"counted":0,"pending":0,)"
            R"("exact":true,"holds":true},{"impressions":6,"windowSeconds":86400,"counted":0,"pending":0,"exact":false,"holds":true}]})");
}

// GDPR excludes no ad (docs/targeting.md): it decides whether the user id may be used, so
// in the territory without consent caps are not read and a capped-out ad is served.
TEST_F(ExplainTest, GdprWithoutConsentLeavesCapsUnreadAndSaysWhy) {
  auto handler = make_explainer(1);
  caps_.record(caps::user_key("u3"), 311, kCaps311, kNowS - 60);
  const std::string refused =
      R"({"placements":[{"key":"rules","count":10,"targeting":{"geo":[3017382]}}],"user":{"id":"u3","consent":{"gdpr":false}}})";
  auto root = explain(*handler, refused);
  EXPECT_EQ(outcome_of(root, 0, "ad_311"), "served");
  EXPECT_EQ(json_of(candidate(root, 0, "ad_311")["frequencyCaps"]),
            R"({"applied":false,"why":"consent_refused","caps":null})");
  EXPECT_EQ(json_of(root["data"]["request"]["gdpr"]),
            R"({"territory":true,"because":["placements[0].targeting.geo"],"consent":"refused",)"
            R"("consentStringPurpose1":null,"userIdUsable":false})");
  // No consent stated in the territory: the same.
  root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"geo":[3017382]}}],"user":{"id":"u3"}})");
  EXPECT_EQ(json_of(root["data"]["request"]["frequencyCaps"]), R"({"applied":false,"why":"gdpr_without_consent"})");
  EXPECT_EQ(outcome_of(root, 0, "ad_311"), "served");
  // Consent given: the cap holds the ad back.
  root = explain(*handler,
                 R"({"placements":[{"key":"rules","count":10,"targeting":{"geo":[3017382]}}],"user":{"id":"u3","consent":{"gdpr":true}}})");
  EXPECT_THAT(rule_of(root, 0, "ad_311"), HasSubstr(R"("name":"frequency_cap")"));
  // No user id at all.
  root = explain(*handler, kRules);
  EXPECT_EQ(json_of(candidate(root, 0, "ad_311")["frequencyCaps"]), R"({"applied":false,"why":"no_user_id","caps":null})");
}

TEST_F(ExplainTest, AlreadyChosenForAnotherPlacement) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, R"({"placements":[{"key":"home_top","count":10},{"key":"sidebar","count":10}]})");
  EXPECT_EQ(rule_of(root, 1, "ad_102"), R"({"name":"already_chosen","byPlacement":"home_top","byPlacementIndex":0})");
  EXPECT_THAT(served_ads(root, 1), ElementsAre("ad_106"));
}

TEST_F(ExplainTest, TierNotReachedNamesTheTierThatFilledThePlacement) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, R"({"placements":[{"key":"home_top","count":1}]})");
  EXPECT_THAT(served_ads(root, 0), ElementsAre("ad_101"));
  EXPECT_EQ(rule_of(root, 0, "ad_103"), R"({"name":"tier_not_reached","filledBy":"sponsorship","otherwise":null})");
  const simdjson::dom::element placement = root["data"]["placements"].at(0);
  EXPECT_EQ(std::string_view(placement["filledBy"]), "sponsorship");
  EXPECT_EQ(json_of(placement["tiers"]),
            R"([{"priority":"sponsorship","weight":100,"reached":true,"asked":1,"eligibleWeight":1,"drawn":["ad_101"]},)"
            R"({"priority":"standard","weight":50,"reached":false,"asked":0,"eligibleWeight":null,"drawn":[]}])");
}

TEST_F(ExplainTest, NotDrawnShowsTheWeightsOfTheTier) {
  auto handler = make_explainer(1);
  const auto root = explain(*handler, R"({"placements":[{"key":"sidebar","count":1}]})");
  const std::vector<std::string> served = served_ads(root, 0);
  ASSERT_EQ(served.size(), 1u);
  const std::string other = served[0] == "ad_102" ? "ad_106" : "ad_102";
  EXPECT_EQ(rule_of(root, 0, other),
            R"({"name":"not_drawn","weight":5,"eligibleWeight":10,"asked":1,"drawn":[")" + served[0] + R"("]})");
}

}  // namespace
}  // namespace decision::explain::testing
