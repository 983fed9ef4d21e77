// SIGHUP re-opens --geoip-db (docs/operations.md; operators refresh GeoLite2 weekly): decisions
// follow the new database once every core has it; a file that does not open is refused,
// the database in force stays, stderr says why and metrics count it. The databases are the
// MaxMind test files of ../shared/fixtures/geoip, copied into a private directory and
// replaced by rename, as a database updater does.
#include <signal.h>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/updates/admin_calls.h"

namespace integration::updates {
namespace {

// In GeoIP2-City-Test.mmdb: London (city 2643743), GB (country 2635167). The
// GeoIP2-Country layout knows only its country.
constexpr char kLondonIp[] = "81.2.69.142";

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(GEOIP_FIXTURE_DIR) + "/" + name, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Ad 1 for London, ad 2 for GB, ad 3 anywhere.
std::string geo_catalog() {
  return test_catalog_json({{1, "slot"}}, {{.id = 1, .placement_ids = {1}, .targeting_json = R"({"geo":[2643743]})"},
                                           {.id = 2, .placement_ids = {1}, .targeting_json = R"({"geo":[2635167]})"},
                                           {.id = 3, .placement_ids = {1}}});
}

// Every ad served to ip, over decisions on fresh connections so that both cores answer.
std::set<std::string> ads_for(const ServerProcess& server, const std::string& ip) {
  std::set<std::string> ads;
  for (int i = 0; i < 6; ++i) {
    DecisionClient client(server);
    const CurlReply reply =
        client.decide(R"({"placements":[{"key":"slot","count":10}],"user":{"ip":")" + ip + R"("}})");
    DecisionReply decision;
    EXPECT_TRUE(ReadDecision(reply.body, decision)) << reply.body;
    for (const std::string& id : decision.ad_ids()) ads.insert(id);
  }
  return ads;
}

class GeoIpReload : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>(
        standard_flags({"--catalog=" + catalog_.path(), "--geoip-db=" + database_.path()}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
    ASSERT_EQ(ads_for(*server_, kLondonIp), (std::set<std::string>{"ad_1", "ad_2", "ad_3"}))
        << "the city database places the IP in London, GB";
  }

  // Replaces the database file with `bytes` and waits until the SIGHUP is done: its
  // catalog, re-read from the unchanged file, is published last.
  void reload_with(const std::string& bytes) {
    replace_file(database_.path(), bytes);
    const double updates = metric_value(*server_, "decisiond_catalog_updates_total");
    server_->send_signal(SIGHUP);
    EXPECT_EQ(wait_for_metric(*server_, "decisiond_catalog_updates_total", {}, updates + 1), updates + 1);
  }

  TempFile catalog_{"catalog.json", geo_catalog()};
  TempFile database_{"geoip.mmdb", fixture("GeoIP2-City-Test.mmdb")};
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(GeoIpReload, DecisionsFollowTheReopenedDatabase) {
  reload_with(fixture("GeoIP2-Country-Test.mmdb"));
  EXPECT_EQ(metric_value(*server_, "decisiond_geoip_reloads_total"), 1);
  EXPECT_EQ(metric_value(*server_, "decisiond_geoip_refusals_total"), 0);
  EXPECT_TRUE(wait_for_stderr(*server_, "--geoip-db " + database_.path() + " re-opened")) << server_->stderr_text();
  // Still GB, but no longer a city.
  EXPECT_EQ(ads_for(*server_, kLondonIp), (std::set<std::string>{"ad_2", "ad_3"}));
}

TEST_F(GeoIpReload, AFileThatDoesNotOpenKeepsTheDatabaseInForceAndSaysWhy) {
  reload_with(fixture("GeoIP2-Country-Test.mmdb"));
  ASSERT_EQ(ads_for(*server_, kLondonIp), (std::set<std::string>{"ad_2", "ad_3"}));

  reload_with("this is no MaxMind database\n");
  EXPECT_EQ(metric_value(*server_, "decisiond_geoip_refusals_total"), 1);
  EXPECT_EQ(metric_value(*server_, "decisiond_geoip_reloads_total"), 1) << "only the first re-open";
  EXPECT_TRUE(wait_for_stderr(*server_, "--geoip-db " + database_.path() + " refused, the database in force stays: "))
      << server_->stderr_text();
  // The country database in force, not the one started with, nor none.
  EXPECT_EQ(ads_for(*server_, kLondonIp), (std::set<std::string>{"ad_2", "ad_3"}));
}

// Each core keeps decoded records by their offset in the database (geoip_record_cache.h) and
// must drop them when the database changes. 2.125.160.216 is at record offset 0 in both the
// GeoIP2-Country and GeoLite2-City test databases: GB alone in the first, GB and its city
// 2655045 in the second. Re-opened twice with no look-up on a core in between, the third
// database must still answer with its own records, not with the first one's (which the
// cache would keep if it told databases apart by an address the allocator can hand out
// again once the first database is closed).
TEST(GeoIpReloadRecords, ARecordDecodedFromAnEarlierDatabaseIsNeverServed) {
  constexpr char kIp[] = "2.125.160.216";
  // Ad 1 for city 2655045, ad 3 anywhere. A small catalog: SIGHUP rebuilds it between the
  // re-opens, and a larger one changes what the allocator hands out meanwhile, and with it
  // whether such a fault shows.
  const TempFile catalog("catalog.json", R"({"revision":"g","defaultLanguage":"en",
"priorities":[{"key":"standard","weight":50}],"advertisers":[{"id":1,"name":"One"}],
"templates":[{"id":1,"key":"card"}],"placements":[{"id":1,"key":"slot"}],"ads":[
{"id":1,"advertiserId":1,"placementIds":[1],"templateId":1,"priority":"standard","weight":1,
 "start":"2020-01-01T00:00:00Z","targeting":{"geo":[2655045]},"creatives":[{"id":10,"contents":{"en":[{"key":"title","value":"x"}]}}]},
{"id":3,"advertiserId":1,"placementIds":[1],"templateId":1,"priority":"standard","weight":1,
 "start":"2020-01-01T00:00:00Z","creatives":[{"id":30,"contents":{"en":[{"key":"title","value":"x"}]}}]}]})");
  const TempFile database("geoip.mmdb", fixture("GeoIP2-Country-Test.mmdb"));
  ServerProcess server(standard_flags({"--catalog=" + catalog.path(), "--geoip-db=" + database.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_EQ(ads_for(server, kIp), (std::set<std::string>{"ad_3"})) << "the country database knows no city";

  for (const char* next : {"GeoIP2-City-Test.mmdb", "GeoLite2-City-Test.mmdb"}) {
    replace_file(database.path(), fixture(next));
    const double reloads = metric_value(server, "decisiond_geoip_reloads_total");
    server.send_signal(SIGHUP);
    ASSERT_EQ(wait_for_metric(server, "decisiond_geoip_reloads_total", {}, reloads + 1), reloads + 1);
  }
  EXPECT_EQ(ads_for(server, kIp), (std::set<std::string>{"ad_1", "ad_3"}))
      << "GeoLite2-City places the IP in city 2655045";
}

}  // namespace
}  // namespace integration::updates
