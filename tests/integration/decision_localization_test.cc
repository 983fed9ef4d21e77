// Content language (docs/versions-and-languages.md): the best match of
// Accept-Language among a creative's languages, else the catalog's default with warning
// 20004; no header at all is warning 20001. Checked against the demo catalog's own
// contents, read from catalogs/demo.json (the file the binary has built in).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"

#ifndef DEMO_CATALOG_PATH
#error "DEMO_CATALOG_PATH must name catalogs/demo.json (set by tests/integration/CMakeLists.txt)"
#endif

namespace integration {
namespace {

using Contents = std::vector<std::pair<std::string, std::string>>;
// "creative_<id>" -> language -> its content items (key, value).
using DemoContents = std::map<std::string, std::map<std::string, Contents>>;

DemoContents read_demo_contents() {
  std::ifstream file(DEMO_CATALOG_PATH);
  std::stringstream text;
  text << file.rdbuf();
  const JsonBody catalog(text.str());
  EXPECT_TRUE(catalog.ok()) << DEMO_CATALOG_PATH << ": " << catalog.error();
  DemoContents out;
  if (!catalog.ok()) return out;
  for (simdjson::dom::element ad : array_member(catalog.root(), "ads")) {
    for (simdjson::dom::element creative : array_member(ad, "creatives")) {
      const std::string id = "creative_" + std::to_string(int_member(creative, "id").value_or(0));
      simdjson::dom::object languages;
      if (creative["contents"].get(languages) != simdjson::SUCCESS) continue;
      for (const auto language : languages) {
        Contents& items = out[id][std::string(language.key)];
        for (simdjson::dom::element item : array_items(language.value)) {
          items.emplace_back(string_member(item, "key").value_or(""), string_member(item, "value").value_or(""));
        }
      }
    }
  }
  return out;
}

class Localization : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(server_.serving()) << server_.start_error(); }

  // The decision for every demo placement with this Accept-Language (nullopt: none sent).
  DecisionReply decide(std::optional<std::string> accept_language,
                       const std::string& body = kAllDemoNativePlacements) {
    const CurlReply reply = client_.decide(body, {.accept_language = accept_language});
    EXPECT_EQ(reply.status, 200) << reply.body;
    DecisionReply decision;
    EXPECT_TRUE(ReadDecision(reply.body, decision));
    EXPECT_FALSE(decision.ad_ids().empty()) << reply.body;
    return decision;
  }

  // Whether each creative served has exactly the demo contents of the first of `languages`
  // that it has.
  void expect_contents(const DecisionReply& decision, const std::vector<std::string>& languages) {
    for (const PlacementDecision& placement : decision.data) {
      for (const ServedCreative& creative : placement.creatives) {
        const auto demo = demo_.find(creative.creative_id);
        ASSERT_NE(demo, demo_.end()) << creative.creative_id << " is not in " << DEMO_CATALOG_PATH;
        std::string expected_language;
        for (const std::string& language : languages) {
          if (demo->second.count(language)) {
            expected_language = language;
            break;
          }
        }
        ASSERT_FALSE(expected_language.empty()) << creative.creative_id;
        EXPECT_EQ(creative.contents, demo->second.at(expected_language))
            << creative.creative_id << " should be in " << expected_language;
      }
    }
  }

  const DemoContents demo_ = read_demo_contents();
  ServerProcess server_{standard_flags()};
  DecisionClient client_{server_};
};

TEST_F(Localization, FrenchIsServedWhenAsked) {
  const DecisionReply decision = decide("fr");
  expect_contents(decision, {"fr"});
  EXPECT_TRUE(decision.warnings_null) << "every demo creative has French contents";
}

TEST_F(Localization, LanguageNoCreativeHasFallsBackToTheDefaultWithWarning20004PerPlacement) {
  const DecisionReply decision = decide(
      "de", R"({"placements":[{"key":"home_top","count":2},{"key":"nowhere"},{"key":"sidebar","count":2}]})");
  expect_contents(decision, {"en"});
  ASSERT_EQ(decision.warnings.size(), 3u);
  // One warning per placement, in request order: 20004, then 20003 for the unknown key.
  EXPECT_EQ(decision.warnings[0].code, 20004);
  EXPECT_EQ(decision.warnings[0].details.at("field"), "placements[0]");
  EXPECT_EQ(decision.warnings[0].details.at("default_language"), "en");
  EXPECT_EQ(decision.warnings[1].code, 20003);
  EXPECT_EQ(decision.warnings[1].details.at("field"), "placements[1].key");
  EXPECT_EQ(decision.warnings[2].code, 20004);
  EXPECT_EQ(decision.warnings[2].details.at("field"), "placements[2]");
  EXPECT_EQ(decision.warnings[2].details.at("default_language"), "en");
}

TEST_F(Localization, MissingAcceptLanguageIsTheDefaultWithOneWarning20001) {
  const DecisionReply decision = decide(std::nullopt);
  expect_contents(decision, {"en"});
  ASSERT_EQ(decision.warnings.size(), 1u) << "once per response, not per placement or creative";
  EXPECT_EQ(decision.warnings[0].code, 20001);
  EXPECT_EQ(decision.warnings[0].details.at("header"), "Accept-Language");
  EXPECT_EQ(decision.warnings[0].details.at("default_language"), "en");
}

TEST_F(Localization, QValuesRankTheLanguages) {
  // German is preferred but no creative has it; French comes next.
  expect_contents(decide("de;q=0.9, fr;q=0.8"), {"fr"});
  // An item without q is q=1: it beats the English listed first.
  expect_contents(decide("en;q=0.1, fr"), {"fr"});
  // Per creative: Brazilian Portuguese where a creative has it, else French.
  const DecisionReply decision = decide("fr;q=0.5, pt-BR;q=0.9");
  expect_contents(decision, {"pt-BR", "fr"});
  EXPECT_TRUE(decision.warnings_null) << "every creative had one of the languages asked";
}

TEST_F(Localization, LanguageRangeMatchesARegionalContentTag) {
  // RFC 4647 basic filtering: "pt" serves the pt-BR contents of the creatives that have them.
  expect_contents(decide("pt, fr;q=0.5"), {"pt-BR", "fr"});
  // And lookup: "fr-CA" falls back to "fr".
  expect_contents(decide("fr-CA"), {"fr"});
}

}  // namespace
}  // namespace integration
