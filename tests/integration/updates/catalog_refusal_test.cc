// POST /admin/catalog with a catalog the server must refuse (docs/operations.md): 422, one
// error item per catalog error, each code 10030 with its JSON path in details.field; the
// catalog in force stays served, and the refusal is counted in metrics.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/integration/curl_session.h"
#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/updates/admin_calls.h"

namespace integration::updates {
namespace {

constexpr int kCatalogRefused = 10030;

// Every error item's message, in order.
std::vector<std::string> error_messages(const std::string& body) {
  std::vector<std::string> out;
  const JsonBody json(body);
  if (!json.ok()) return out;
  for (simdjson::dom::element item : array_member(json.root(), "errors")) out.push_back(string_member(item, "message").value_or(""));
  return out;
}

// The head of a catalog whose only entities are advertiser 1, template 1 and placement 1
// ("slot"): what follows is its "ads" array and the closing brace.
constexpr char kHead[] = R"({"revision":"refused","defaultLanguage":"en",
"priorities":[{"key":"standard","weight":50}],"advertisers":[{"id":1,"name":"One"}],
"templates":[{"id":1,"key":"card"}],"placements":[{"id":1,"key":"slot"}],"ads":[)";

std::string ad(const std::string& id, const std::string& references, const std::string& extra = "") {
  return R"({"id":)" + id + "," + references +
         R"(,"templateId":1,"priority":"standard","weight":1,"start":"2020-01-01T00:00:00Z")" + extra +
         R"(,"creatives":[{"id":)" + id + R"(0,"contents":{"en":[{"key":"title","value":"x"}]}}]})";
}

class CatalogRefusal : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>(standard_flags({"--catalog=" + catalog_.path()}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }

  // The catalog the server started with still answers, and the refusal was counted.
  void ExpectCatalogInForceKept(double errors_in_refusal) {
    EXPECT_EQ(served_revision(*server_), "in-force");
    DecisionClient client(*server_);
    const CurlReply reply = client.decide(R"({"placements":[{"key":"slot","count":1}]})");
    DecisionReply decision;
    ASSERT_TRUE(ReadDecision(reply.body, decision));
    EXPECT_EQ(decision.ad_ids(), std::vector<std::string>{"ad_7"});
    EXPECT_EQ(metric_value(*server_, "decisiond_catalog_refusals_total"), 1);
    EXPECT_EQ(metric_value(*server_, "decisiond_catalog_last_refusal_errors"), errors_in_refusal);
    EXPECT_GT(metric_value(*server_, "decisiond_catalog_last_refusal_timestamp_seconds"), 0);
    EXPECT_EQ(metric_value(*server_, "decisiond_catalog_updates_total"), 1) << "only the catalog started with";
  }

  TempFile catalog_{"catalog.json", with_revision(test_catalog_json({{1, "slot"}}, {{.id = 7, .placement_ids = {1}}}), "in-force")};
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(CatalogRefusal, SyntaxErrorIs422WithItsPositionInTheMessage) {
  const CurlReply reply = upload_catalog(*server_, "{\"revision\": \"broken\",\n  \"ads\": [");
  ASSERT_TRUE(reply.ok) << reply.error;
  EXPECT_EQ(reply.status, 422);
  // Not JSON: no path to name, so no details.field.
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{kCatalogRefused, ""}}));
  const std::vector<std::string> messages = error_messages(reply.body);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("line 2, column 11"), std::string::npos) << messages[0];
  ExpectCatalogInForceKept(1);
}

TEST_F(CatalogRefusal, BrokenReferencesAre422ListingEveryPath) {
  const std::string body = std::string(kHead) +
                           ad("1", R"("advertiserId":1,"placementIds":[1,99])") + ",\n" +  // no placement 99
                           ad("2", R"("advertiserId":77,"placementIds":[1])") + ",\n" +    // no advertiser 77
                           ad("3", R"("placementIds":[1])") + "]}";                          // no advertiserId
  const CurlReply reply = upload_catalog(*server_, body);
  ASSERT_TRUE(reply.ok) << reply.error;
  EXPECT_EQ(reply.status, 422);
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{kCatalogRefused, "ads[0].placementIds[1]"},
                                                  {kCatalogRefused, "ads[1].advertiserId"},
                                                  {kCatalogRefused, "ads[2].advertiserId"}}));
  for (const std::string& message : error_messages(reply.body)) EXPECT_FALSE(message.empty());
  ExpectCatalogInForceKept(3);
}

TEST_F(CatalogRefusal, CustomRuleThatDoesNotCompileIs422WithItsPathAndPosition) {
  const std::string body = std::string(kHead) +
                           ad("1", R"("advertiserId":1,"placementIds":[1])",
                              R"(,"targeting":{"custom":"custom.age >= 18 && nobody.knows"})") +
                           "]}";
  const CurlReply reply = upload_catalog(*server_, body);
  ASSERT_TRUE(reply.ok) << reply.error;
  EXPECT_EQ(reply.status, 422);
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{kCatalogRefused, "ads[0].targeting.custom"}}));
  const std::vector<std::string> messages = error_messages(reply.body);
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_NE(messages[0].find("1:21: undeclared reference to 'nobody'"), std::string::npos) << messages[0];
  ExpectCatalogInForceKept(1);
}

}  // namespace
}  // namespace integration::updates
