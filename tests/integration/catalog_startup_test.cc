// The catalog a process starts with: the built-in demo catalog by default, --catalog
// otherwise; a catalog with errors refuses start-up with exit 2 and lists every error.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "tests/integration/metrics_scrape.h"
#include "tests/integration/metrics_text.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

std::string write_temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(CatalogStartup, DemoCatalogIsServedWithoutCatalogFlag) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::string page = scrape_metrics(server);
  EXPECT_NE(page.find("decisiond_catalog_info{revision=\"demo-"), std::string::npos) << page;
  EXPECT_GT(sum_samples(page, "decisiond_catalog_ads", {}).value_or(0), 0);
}

TEST(CatalogStartup, CatalogFileIsServedWithItsRevision) {
  const std::string path = write_temp_file("catalog_ok.json", R"({
    "revision": "test-rev-7", "defaultLanguage": "en",
    "priorities": [{"key": "standard", "weight": 50}],
    "advertisers": [{"id": 1, "name": "A"}], "templates": [{"id": 1, "key": "t"}],
    "placements": [{"id": 1, "key": "p"}],
    "ads": [{"id": 1, "advertiserId": 1, "placementIds": [1], "templateId": 1,
             "priority": "standard", "weight": 1, "start": "2026-01-01T00:00:00Z",
             "creatives": [{"id": 1, "contents": {"en": [{"key": "title", "value": "x"}]}}]}]})");
  ServerProcess server(standard_flags({"--catalog=" + path}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::string page = scrape_metrics(server);
  EXPECT_NE(page.find("decisiond_catalog_info{revision=\"test-rev-7\"} 1"), std::string::npos) << page;
  EXPECT_EQ(sum_samples(page, "decisiond_catalog_ads", {}), 1);
  std::remove(path.c_str());
}

TEST(CatalogStartup, RefusedCatalogExitsTwoListingEveryError) {
  const std::string path = write_temp_file("catalog_bad.json", R"({
    "revision": "bad", "defaultLanguage": "en",
    "priorities": [{"key": "standard", "weight": 50}],
    "advertisers": [{"id": 1, "name": "A"}], "templates": [{"id": 1, "key": "t"}],
    "placements": [{"id": 1, "key": "p"}],
    "ads": [{"id": 1, "advertiserId": 99, "placementIds": [1], "templateId": 1,
             "priority": "standard", "weight": 0, "start": "2026-01-01T00:00:00Z",
             "creatives": [{"id": 1, "contents": {"en": [{"key": "title", "value": "x"}]}}]}]})");
  const FinishedRun run = run_to_exit(standard_flags({"--catalog=" + path}));
  ASSERT_TRUE(run.exit) << "still running: a refused catalog must stop start-up";
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  EXPECT_NE(run.stderr_text.find("refused with 2 error(s)"), std::string::npos) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("ads[0].advertiserId"), std::string::npos) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("ads[0].weight"), std::string::npos) << run.stderr_text;
  std::remove(path.c_str());
}

TEST(CatalogStartup, CustomRuleThatDoesNotCompileExitsTwoWithItsPathAndPosition) {
  const std::string path = write_temp_file("catalog_bad_cel.json", R"({
    "revision": "bad-cel", "defaultLanguage": "en",
    "priorities": [{"key": "standard", "weight": 50}],
    "advertisers": [{"id": 1, "name": "A"}], "templates": [{"id": 1, "key": "t"}],
    "placements": [{"id": 1, "key": "p"}],
    "ads": [{"id": 1, "advertiserId": 1, "placementIds": [1], "templateId": 1,
             "priority": "standard", "weight": 1, "start": "2026-01-01T00:00:00Z",
             "targeting": {"custom": "custom.age >= 18 && nobody.knows"},
             "creatives": [{"id": 1, "contents": {"en": [{"key": "title", "value": "x"}]}}]}]})");
  const FinishedRun run = run_to_exit(standard_flags({"--catalog=" + path}));
  ASSERT_TRUE(run.exit) << "still running: a refused catalog must stop start-up";
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  EXPECT_NE(run.stderr_text.find("ads[0].targeting.custom: 1:21: undeclared reference to 'nobody'"), std::string::npos) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("nobody"), std::string::npos) << run.stderr_text;
  std::remove(path.c_str());
}

TEST(CatalogStartup, CatalogThatIsNotJsonExitsTwoWithItsPosition) {
  const std::string path = write_temp_file("catalog_truncated.json", "{\"revision\": \"x\",\n  \"ads\": [");
  const FinishedRun run = run_to_exit(standard_flags({"--catalog=" + path}));
  ASSERT_TRUE(run.exit);
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  EXPECT_NE(run.stderr_text.find("line 2"), std::string::npos) << run.stderr_text;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace integration

namespace integration {
namespace {

// Geography files are start-up input like the catalog: refused, they stop start-up with 2.
TEST(GeoStartup, AFileThatIsNotAMaxMindDatabaseExitsTwo) {
  const std::string path = write_temp_file("not_a_database.mmdb", "{\"just\": \"json\"}");
  const FinishedRun run = run_to_exit(standard_flags({"--geoip-db=" + path}));
  ASSERT_TRUE(run.exit) << "still running with an unusable --geoip-db";
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  EXPECT_NE(run.stderr_text.find("--geoip-db refused: " + path), std::string::npos) << run.stderr_text;
  std::remove(path.c_str());
}

TEST(GeoStartup, AGeoNamesDirectoryWithoutTheDumpsExitsTwo) {
  const FinishedRun run = run_to_exit(standard_flags({"--geonames-dir=/tmp"}));
  ASSERT_TRUE(run.exit) << "still running with an unusable --geonames-dir";
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  EXPECT_NE(run.stderr_text.find("--geonames-dir refused: /tmp/countryInfo.txt: cannot be read"),
            std::string::npos)
      << run.stderr_text;
}

}  // namespace
}  // namespace integration
