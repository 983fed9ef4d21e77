// POST /v1/decision as served (docs/decision-response.md):
// the shape of every creative under each version, one data item per requested
// placement in request order, `count`, no ad twice in one response, and --seed.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "tests/integration/creative_shape.h"
#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/test_base_url.h"

namespace integration {
namespace {

using simdjson::dom::element;


ServerProcess demo_server(std::vector<std::string> extra = {}) {
  extra.push_back(std::string("--base-url=") + kTestBaseUrl);
  return ServerProcess(standard_flags(extra));
}

struct VersionShape {
  const char* version;
  ShapeRules rules;
};

void PrintTo(const VersionShape& shape, std::ostream* out) { *out << shape.version; }

class CreativeShapeTest : public ::testing::TestWithParam<VersionShape> {};

TEST_P(CreativeShapeTest, EveryCreativeHasTheShapeOfItsVersion) {
  const VersionShape& param = GetParam();
  ServerProcess server = demo_server();
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide(kAllDemoNativePlacements, {.version = param.version, .accept_language = "en"});
  ASSERT_TRUE(reply.ok) << reply.error;
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("X-Decision-Version"), param.version);
  EXPECT_EQ(reply.header("Content-Type"), "application/json");

  DecisionReply envelope;
  ASSERT_TRUE(ReadDecision(reply.body, envelope));
  EXPECT_TRUE(envelope.warnings_null) << "nothing to warn about: " << reply.body;
  const JsonBody body(reply.body);
  ASSERT_TRUE(body.ok()) << body.error();
  const std::vector<element> data = array_member(body.root(), "data");
  ASSERT_EQ(data.size(), 3u) << reply.body;
  ShapeSeen seen;
  for (element placement : data) {
    ASSERT_TRUE(string_member(placement, "placement")) << placement;
    const std::vector<element> creatives = array_member(placement, "creatives");
    EXPECT_FALSE(creatives.empty()) << "the demo catalog has untargeted ads here: " << placement;
    for (element creative : creatives) EXPECT_TRUE(HasCreativeShape(creative, param.rules, seen));
  }
  // The demo catalog has creatives with custom events and with verification resources:
  // both branches of the shape were looked at.
  EXPECT_GT(seen.with_custom_events, 0);
  EXPECT_EQ(seen.with_verification > 0, param.rules.verification_member);
}

INSTANTIATE_TEST_SUITE_P(EachVersion, CreativeShapeTest,
                         ::testing::Values(VersionShape{"2025-01-01", {kTestTrackingPrefix, false, false}},
                                           VersionShape{"2025-11-01", {kTestTrackingPrefix, true, true}}),
                         [](const ::testing::TestParamInfo<VersionShape>& info) {
                           return std::string("V") + std::regex_replace(info.param.version, std::regex("-"), "");
                         });

TEST(DecisionData, OneItemPerRequestedPlacementInRequestOrder) {
  ServerProcess server = demo_server();
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide(
      R"({"placements":[{"key":"sidebar","count":2},{"key":"no_such_placement","count":3},)"
      R"({"key":"home_top"},{"key":"article_inline","count":2}]})",
      {.accept_language = "en"});
  ASSERT_EQ(reply.status, 200) << reply.body;
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.data.size(), 4u);
  const char* const keys[] = {"sidebar", "no_such_placement", "home_top", "article_inline"};
  const char* const placement_ids[] = {"placement_10", "", "placement_7", "placement_8"};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(decision.data[i].placement, keys[i]);
    for (const ServedCreative& creative : decision.data[i].creatives) {
      EXPECT_EQ(creative.placement_id, placement_ids[i]) << "placement " << i;
    }
  }
  EXPECT_TRUE(decision.data[1].creatives.empty());
  EXPECT_FALSE(decision.data[0].creatives.empty());
  ASSERT_EQ(decision.warnings.size(), 1u) << reply.body;
  EXPECT_EQ(decision.warnings[0].code, 20003);
  EXPECT_EQ(decision.warnings[0].details["field"], "placements[1].key");
  EXPECT_EQ(decision.warnings[0].details["placement"], "no_such_placement");
}

TEST(DecisionData, NeverMoreCreativesThanCount) {
  ServerProcess server = demo_server();
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  for (int count = 1; count <= 10; ++count) {
    const std::string n = std::to_string(count);
    const CurlReply reply = client.decide(R"({"placements":[{"key":"home_top","count":)" + n +
                                          R"(},{"key":"sidebar","count":)" + n + "}]}");
    ASSERT_EQ(reply.status, 200) << reply.body;
    DecisionReply decision;
    ASSERT_TRUE(ReadDecision(reply.body, decision));
    ASSERT_EQ(decision.data.size(), 2u);
    for (const PlacementDecision& placement : decision.data) {
      EXPECT_LE(placement.creatives.size(), static_cast<size_t>(count)) << placement.placement;
      EXPECT_GE(placement.creatives.size(), 1u) << placement.placement;
    }
  }
}

// Twelve untargeted ads in one placement: any count from 1 to 10 can be met.
std::vector<TestAd> twelve_ads_on(uint64_t placement_id) {
  std::vector<TestAd> ads;
  for (uint64_t id = 1; id <= 12; ++id) {
    ads.push_back({.id = id, .placement_ids = {placement_id}, .weight = static_cast<uint32_t>(1 + id % 4)});
  }
  return ads;
}

TEST(DecisionData, ExactlyCountCreativesWhenEnoughAdsAreEligible) {
  const TempFile catalog("catalog.json", test_catalog_json({{1, "feed"}}, twelve_ads_on(1)));
  ServerProcess server(standard_flags({"--catalog=" + catalog.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  for (int count = 1; count <= 10; ++count) {
    const CurlReply reply = client.decide(R"({"placements":[{"key":"feed","count":)" + std::to_string(count) + "}]}");
    ASSERT_EQ(reply.status, 200) << reply.body;
    DecisionReply decision;
    ASSERT_TRUE(ReadDecision(reply.body, decision));
    ASSERT_EQ(decision.data.size(), 1u);
    EXPECT_EQ(decision.data[0].creatives.size(), static_cast<size_t>(count));
  }
  // Without count: one (docs/decision-request.md: default 1).
  const CurlReply reply = client.decide(R"({"placements":[{"key":"feed"}]})");
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.data.size(), 1u);
  EXPECT_EQ(decision.data[0].creatives.size(), 1u);
}

TEST(DecisionData, SameAdNeverTwiceInOneResponse) {
  // Four ads shown on both placements: whatever is drawn, a response holds each at most once.
  std::vector<TestAd> ads;
  for (uint64_t id = 1; id <= 4; ++id) ads.push_back({.id = id, .placement_ids = {1, 2}, .weight = static_cast<uint32_t>(id)});
  const TempFile catalog("catalog.json", test_catalog_json({{1, "top"}, {2, "bottom"}}, ads));
  ServerProcess server(standard_flags({"--catalog=" + catalog.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  for (int round = 0; round < 30; ++round) {
    const CurlReply reply = client.decide(
        R"({"placements":[{"key":"top","count":3},{"key":"bottom","count":3},{"key":"top","count":2}]})");
    ASSERT_EQ(reply.status, 200) << reply.body;
    DecisionReply decision;
    ASSERT_TRUE(ReadDecision(reply.body, decision));
    ASSERT_EQ(decision.data.size(), 3u);
    const std::vector<std::string> ids = decision.ad_ids();
    EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size()) << "round " << round << ": " << reply.body;
    // The first placement takes three, the second the one left, the third none.
    EXPECT_EQ(decision.data[0].creatives.size(), 3u) << "round " << round;
    EXPECT_EQ(decision.data[1].creatives.size(), 1u) << "round " << round;
    EXPECT_EQ(decision.data[2].creatives.size(), 0u) << "round " << round;
  }
}

// The most a request can ask for (20 placements, docs/errors.md; count 10 each) with
// more than enough ads: all 200 served, none twice.
TEST(DecisionData, TwentyPlacementsOfTenCreativesAreServedInFull) {
  std::vector<TestAd> ads;
  for (uint64_t id = 1; id <= 250; ++id) ads.push_back({.id = id, .placement_ids = {1}});
  const TempFile catalog("catalog.json", test_catalog_json({{1, "feed"}}, ads));
  ServerProcess server(standard_flags({"--catalog=" + catalog.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  std::string body = R"({"placements":[)";
  for (int i = 0; i < 20; ++i) body += std::string(i ? "," : "") + R"({"key":"feed","count":10})";
  const CurlReply reply = client.decide(body + "]}", {.version = "2025-11-01", .accept_language = "en"});
  ASSERT_EQ(reply.status, 200) << reply.body.substr(0, 500);
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.data.size(), 20u);
  for (const PlacementDecision& placement : decision.data) EXPECT_EQ(placement.creatives.size(), 10u);
  const std::vector<std::string> ids = decision.ad_ids();
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), 200u);
}

// The ad ids a fresh server gives for a fixed sequence of requests.
std::vector<std::string> selections_with_seed(const std::string& catalog_path, const std::string& seed) {
  ServerProcess server(standard_flags({"--cores=1", "--seed=" + seed, "--catalog=" + catalog_path}));
  EXPECT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  std::vector<std::string> ids;
  for (int i = 0; i < 30; ++i) {
    const CurlReply reply = client.decide(i % 3 == 2 ? R"({"placements":[{"key":"side"}]})"
                                                     : R"({"placements":[{"key":"feed","count":3},{"key":"side","count":2}]})");
    EXPECT_EQ(reply.status, 200) << reply.body;
    DecisionReply decision;
    EXPECT_TRUE(ReadDecision(reply.body, decision));
    const std::vector<std::string> more = decision.ad_ids();
    ids.insert(ids.end(), more.begin(), more.end());
    ids.push_back("|");  // request boundary
  }
  return ids;
}

TEST(DecisionSeed, SameSeedGivesTheSameSelections) {
  std::vector<TestAd> ads = twelve_ads_on(1);
  for (TestAd& ad : ads) {
    if (ad.id % 2 == 0) ad.placement_ids.push_back(2);
  }
  const TempFile catalog("catalog.json", test_catalog_json({{1, "feed"}, {2, "side"}}, ads));
  const std::vector<std::string> first = selections_with_seed(catalog.path(), "42");
  const std::vector<std::string> second = selections_with_seed(catalog.path(), "42");
  EXPECT_EQ(first, second);
  // Not because selection ignores randomness: another seed draws otherwise (30 requests of
  // weighted draws among twelve ads agreeing by chance is out of the question).
  EXPECT_NE(first, selections_with_seed(catalog.path(), "43"));
}

}  // namespace
}  // namespace integration
