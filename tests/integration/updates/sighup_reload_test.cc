// SIGHUP re-reads --catalog (docs/operations.md, service/catalog_updates/update_loop.h): a
// valid changed file is published and served with its revision; a broken one is refused,
// the catalog in force stays, stderr says why and metrics count it.
#include <signal.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/updates/admin_calls.h"

namespace integration::updates {
namespace {

std::string catalog_with_ad(uint64_t ad, std::string_view revision) {
  return with_revision(test_catalog_json({{1, "slot"}}, {{.id = ad, .placement_ids = {1}}}), revision);
}

// The ads of decisions on fresh connections, so that both cores answer.
std::vector<std::string> ads_served(const ServerProcess& server) {
  std::vector<std::string> ads;
  for (int i = 0; i < 4; ++i) {
    DecisionClient client(server);
    const CurlReply reply = client.decide(R"({"placements":[{"key":"slot","count":5}]})");
    DecisionReply decision;
    EXPECT_TRUE(ReadDecision(reply.body, decision)) << reply.body;
    for (const std::string& id : decision.ad_ids()) {
      if (ads.empty() || ads.back() != id) ads.push_back(id);
    }
  }
  return ads;
}

TEST(SighupReload, AChangedCatalogFileIsServedWithItsRevision) {
  const TempFile file("catalog.json", catalog_with_ad(1, "first"));
  ServerProcess server(standard_flags({"--catalog=" + file.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  ASSERT_EQ(ads_served(server), std::vector<std::string>{"ad_1"});

  replace_file(file.path(), catalog_with_ad(2, "second"));
  server.send_signal(SIGHUP);
  // Counted once every core serves it.
  EXPECT_EQ(wait_for_metric(server, "decisiond_catalog_updates_total", {}, 2), 2);
  EXPECT_EQ(served_revision(server), "second");
  EXPECT_EQ(ads_served(server), std::vector<std::string>{"ad_2"});
  EXPECT_TRUE(wait_for_stderr(server, "published: revision second, 1 ads")) << server.stderr_text();
  EXPECT_EQ(metric_value(server, "decisiond_catalog_refusals_total"), 0);
}

TEST(SighupReload, ABrokenCatalogFileKeepsTheCatalogInForceAndSaysWhy) {
  const TempFile file("catalog.json", catalog_with_ad(1, "first"));
  ServerProcess server(standard_flags({"--catalog=" + file.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();

  std::string broken = catalog_with_ad(2, "broken");
  // The ad's weight (not a priority's): 0 is out of range.
  broken.replace(broken.find("\"weight\":1,", broken.find("\"ads\"")), 10, "\"weight\":0");
  replace_file(file.path(), broken);
  server.send_signal(SIGHUP);
  EXPECT_EQ(wait_for_metric(server, "decisiond_catalog_refusals_total", {}, 1), 1);
  EXPECT_TRUE(wait_for_stderr(server, "catalog " + file.path() + " refused with 1 error(s), the catalog in force stays"))
      << server.stderr_text();
  EXPECT_TRUE(wait_for_stderr(server, "  ads[0].weight: ")) << server.stderr_text();
  EXPECT_EQ(metric_value(server, "decisiond_catalog_last_refusal_errors"), 1);
  EXPECT_EQ(metric_value(server, "decisiond_catalog_updates_total"), 1);
  EXPECT_EQ(served_revision(server), "first");
  EXPECT_EQ(ads_served(server), std::vector<std::string>{"ad_1"});

  // A file that is gone is refused the same way.
  std::remove(file.path().c_str());
  server.send_signal(SIGHUP);
  EXPECT_EQ(wait_for_metric(server, "decisiond_catalog_refusals_total", {}, 2), 2);
  EXPECT_EQ(served_revision(server), "first");
  EXPECT_EQ(ads_served(server), std::vector<std::string>{"ad_1"});
}

}  // namespace
}  // namespace integration::updates
