// What an explain says about the request's place when the server has its geography
// (--geoip-db, --geonames-dir): the GeoIP record, the zone and GDPR territory it gives, a
// placement's geo widened through the hierarchy; and a GeoIP database swapped at run time.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "decision/geo/geoip_database.h"
#include "decision/geo/geonames_hierarchy.h"
#include "tests/unit/decision/explain/explain_fixture.h"

namespace decision::explain::testing {
namespace {

using ::testing::HasSubstr;

const geo::GeoIpDatabase& city_db() {
  static const geo::GeoIpDatabase db = *geo::GeoIpDatabase::open(GEOIP_FIXTURE_DIR "/GeoIP2-City-Test.mmdb");
  return db;
}

const geo::GeoNamesHierarchy& hierarchy() {
  static const geo::GeoNamesHierarchy loaded = *geo::GeoNamesHierarchy::load_dir(GEONAMES_FIXTURE_DIR);
  return loaded;
}

class ExplainGeoTest : public ExplainTest {
 protected:
  std::unique_ptr<ExplainHandler> make_geo_explainer() {
    settings_ = settings(1);
    settings_.geo.geoip = &city_db();
    settings_.geo.hierarchy = &hierarchy();
    routes_.push_back(
        std::make_unique<user_state::OwnerCoreRoute<ExplainAsk>>("/admin/explain", caps_, 0, nullptr, nullptr, 0));
    return std::make_unique<ExplainHandler>(clock_, 0, versions_, settings_, catalog_, *routes_.back(), nullptr);
  }
};

TEST_F(ExplainGeoTest, TheIpsRecordGivesGeoZoneAndGdprTerritory) {
  auto handler = make_geo_explainer();
  // London: the United Kingdom is GDPR territory although MaxMind does not flag it EU.
  const auto root = explain(*handler, R"({"placements":[{"key":"rules","count":10}],"user":{"id":"u1","ip":"81.2.69.142"}})");
  const simdjson::dom::element facts = root["data"]["request"];
  EXPECT_EQ(json_of(facts["geoip"]),
            R"({"database":true,"found":true,"country":2635167,"subdivision":6269131,"city":2643743,)"
            R"("inEuropeanUnion":false,"timeZone":"Europe/London"})");
  EXPECT_EQ(json_of(facts["timeZone"]), R"({"name":"Europe/London","source":"geoip","localTime":"2026-11-27T00:00:00+00:00"})");
  EXPECT_EQ(json_of(facts["gdpr"]),
            R"({"territory":true,"because":["geoip.country"],"consent":"absent","consentStringPurpose1":null,"userIdUsable":false})");
  EXPECT_EQ(json_of(facts["frequencyCaps"]), R"({"applied":false,"why":"gdpr_without_consent"})");
  EXPECT_EQ(rule_of(root, 0, "ad_304"),
            R"({"name":"geo","requestGeo":[2635167,2643743,6269131],"requestGeoSource":"geoip","adGeo":[3017382]})");
  // Linköping: MaxMind's EU flag.
  const auto sweden = explain(*handler, R"({"placements":[{"key":"rules"}],"user":{"ip":"89.160.20.112"}})");
  EXPECT_THAT(json_of(sweden["data"]["request"]["gdpr"]["because"]), HasSubstr("geoip.inEuropeanUnion"));
}

TEST_F(ExplainGeoTest, APlacementsGeoIsShownWidenedThroughTheHierarchy) {
  auto handler = make_geo_explainer();
  // Paris, the city, also counts as France (the fixtures' cities dump files Paris under a
  // division the admin1 file no longer has, so the division is left out: docs/targeting.md).
  const auto root = explain(*handler, R"({"placements":[{"key":"rules","count":10,"targeting":{"geo":[2988507]}}]})");
  EXPECT_EQ(json_of(root["data"]["placements"].at(0)["geo"]), R"({"source":"request","ids":[2988507,3017382]})");
  EXPECT_EQ(outcome_of(root, 0, "ad_304"), "served");
  EXPECT_EQ(json_of(root["data"]["request"]["gdpr"]["because"]), R"(["placements[0].targeting.geo"])");
}

TEST_F(ExplainGeoTest, AGeoIpDatabaseSwappedAtRunTimeIsTheOneRead) {
  auto handler = make_geo_explainer();
  const std::string body = R"({"placements":[{"key":"rules"}],"user":{"ip":"81.2.69.142"}})";
  EXPECT_EQ(std::string_view(explain(*handler, body)["data"]["request"]["geoip"]["timeZone"]), "Europe/London");
  handler->set_geoip(nullptr);
  EXPECT_EQ(json_of(explain(*handler, body)["data"]["request"]["geoip"]),
            R"({"database":false,"found":false,"country":null,"subdivision":null,"city":null,"inEuropeanUnion":false,"timeZone":null})");
  // Another database opened where the first was: its records, not the cached ones.
  const geo::GeoIpDatabase country_db = *geo::GeoIpDatabase::open(GEOIP_FIXTURE_DIR "/GeoIP2-Country-Test.mmdb");
  handler->set_geoip(&country_db);
  const auto root = explain(*handler, body);
  EXPECT_EQ(uint64_t(root["data"]["request"]["geoip"]["country"]), 2635167u);
  EXPECT_EQ(json_of(root["data"]["request"]["geoip"]["city"]), "null");
}

TEST_F(ExplainGeoTest, ACatalogSwappedAtRunTimeIsTheOneExplained) {
  auto handler = make_geo_explainer();
  std::string other(kCatalog);
  other.replace(other.find("explain-test.1"), 14, "explain-test.2");
  catalog::LoadResult loaded = catalog::load_catalog(other);
  ASSERT_TRUE(loaded.errors.empty());
  handler->set_catalog(endpoint::make_served_catalog(loaded.snapshot));
  EXPECT_EQ(std::string_view(explain(*handler, kRulesBody)["data"]["request"]["catalogRevision"]), "explain-test.2");
}

}  // namespace
}  // namespace decision::explain::testing
