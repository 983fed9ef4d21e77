// The whole body of a decision, byte for byte, under each API version (golden files in
// golden/, tokens masked), plus what the golden files cannot show: what each token seals.
// The files are laid out a member per line (tests/support/json_golden.h);
// DECISIOND_UPDATE_GOLDEN=1 rewrites them from the current output: review the diff before
// committing it.
#include "decision/response/response_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "decision/localization/accept_language.h"
#include "tests/unit/decision/response/response_fixtures.h"
#include "tests/support/allocation_count.h"
#include "tests/support/json_golden.h"

namespace decision::response {
namespace {

using testing::response_catalog;
using testing::response_keys;
using testing::tokens_in;
using testing::without_tokens;

using testing::kBaseUrl;
using testing::kNow;
using testing::kTagTtl;
using testing::kTtl;
constexpr std::string_view kDeprecationWarning =
    R"({"code":20002,"message":"API version 2025-01-01 is deprecated","details":{"sunset_date":"2027-01-01"}})";

void expect_golden(std::string_view name, const std::string& body) {
  test_support::ExpectJsonGolden(std::string(DECISIOND_RESPONSE_GOLDEN_DIR) + "/" + std::string(name),
                                 without_tokens(body));
}

class ResponseWriterTest : public ::testing::Test {
 protected:
  ResponseWriterTest() : snapshot_(response_catalog()), text_(*snapshot_) {}

  uint32_t ad(uint64_t id) const { return *snapshot_->ad_index(id); }
  uint32_t placement(std::string_view key) const {
    return *snapshot_->index().placement_index(key);
  }

  // home_top: 1002 then 1001; "nope": unknown; sidebar: known, nothing chosen.
  std::string write(const api_versions::VersionFeatures& features, std::optional<std::string_view> accept,
                    std::string_view version_warning = {}, std::optional<std::string_view> user = "u-7") {
    picks_ = {selection::Pick{ad(1002), 0}, selection::Pick{ad(1001), 0}};
    placements_ = {
        PlacementDecision{"home_top", placement("home_top"), std::span(picks_)},
        PlacementDecision{"nope", std::nullopt, {}},
        PlacementDecision{"sidebar", placement("sidebar"), {}},
    };
    languages_ = localization::parse_accept_language(accept);
    tracking::TokenIssue issue;
    issue.request_id = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    issue.user_id = user;
    issue.now_s = kNow;
    const ResponseInput input{*snapshot_, text_, features, languages_,
                              version_warning, placements_, issue};
    std::string body;
    EXPECT_TRUE(writer_.write(input, body, outcome_));
    return body;
  }

  std::shared_ptr<const catalog::CatalogSnapshot> snapshot_;
  CatalogText text_;
  tracking::KeyRing keys_ = response_keys();
  tracking::CoreKeys core_keys_{keys_};
  TrackingLinks links_{core_keys_, kBaseUrl, kTtl};
  video::VastDocumentWriter documents_{core_keys_, kBaseUrl, kTtl};
  VideoFields video_{documents_, core_keys_, kBaseUrl, kTagTtl};
  ResponseWriter writer_{links_, video_};
  std::array<selection::Pick, 2> picks_{};
  std::array<PlacementDecision, 3> placements_{};
  localization::LanguagePreferences languages_;
  WriteOutcome outcome_;
};

TEST_F(ResponseWriterTest, Version20250101WholeBody) {
  expect_golden("decision_2025-01-01.json", write(api_versions::kFeatures20250101, "fr"));
}

TEST_F(ResponseWriterTest, Version20251101WholeBody) {
  expect_golden("decision_2025-11-01.json",
                write(api_versions::kFeatures20251101, std::nullopt, kDeprecationWarning));
}

TEST_F(ResponseWriterTest, BodiesAreValidJsonOfTheSpecShape) {
  for (const api_versions::VersionFeatures& features : {api_versions::kFeatures20250101, api_versions::kFeatures20251101}) {
    const std::string body = write(features, "fr");
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    ASSERT_EQ(parser.parse(simdjson::padded_string(body)).get(root), simdjson::SUCCESS) << body;
    EXPECT_TRUE(root["success"].get_bool().value());
    EXPECT_TRUE(root["errors"].is_null());
    simdjson::dom::array data = root["data"].get_array();
    ASSERT_EQ(data.size(), 3u);
    simdjson::dom::array creatives = data.at(0)["creatives"].get_array();
    ASSERT_EQ(creatives.size(), 2u);
    for (simdjson::dom::element creative : creatives) {
      EXPECT_EQ(creative["template"].error() == simdjson::SUCCESS, features.template_in_response);
      EXPECT_EQ(creative["verificationScriptResources"].error() == simdjson::SUCCESS,
                features.verification);
      EXPECT_EQ(creative["delivery"].error(), simdjson::NO_SUCH_FIELD);  // native ads
      EXPECT_EQ(creative["vast"].error(), simdjson::NO_SUCH_FIELD);
    }
    // The escaped text reads back as the catalog's text.
    std::string_view title = creatives.at(1)["contents"].at(0)["value"].get_string();
    EXPECT_EQ(title, "Dites « bonjour »");
    std::string_view name = creatives.at(1)["advertiser"]["name"].get_string();
    EXPECT_EQ(name, "Acme \"Air\" \\ Co");
  }
}

TEST_F(ResponseWriterTest, TokensSealTheEventAdCreativePlacementRequestUserAndExpiry) {
  const std::string body = write(api_versions::kFeatures20250101, "fr");
  const std::vector<std::string> tokens = tokens_in(body);
  // 1002: impression, click. 1001: impression, click, add_to_cart, share.
  ASSERT_EQ(tokens.size(), 6u);
  struct Expected {
    tracking::EventKind kind;
    std::string_view name;
    uint64_t ad, creative;
    std::string_view click_url;
  };
  const Expected expected[] = {
      {tracking::EventKind::kImpression, "impression", 1002, 2002, ""},
      {tracking::EventKind::kClick, "click", 1002, 2002, ""},
      {tracking::EventKind::kImpression, "impression", 1001, 2001, ""},
      {tracking::EventKind::kClick, "click", 1001, 2001, "https://acme.example.com/landing?a=1&b=\"2\""},
      {tracking::EventKind::kCustom, "add_to_cart", 1001, 2001, ""},
      {tracking::EventKind::kCustom, "share", 1001, 2001, ""},
  };
  std::string storage;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const tracking::DecodedToken decoded = core_keys_.tokens().decode(tokens[i], kNow, storage);
    ASSERT_TRUE(decoded.ok()) << i;
    EXPECT_EQ(decoded.event.kind, expected[i].kind) << i;
    EXPECT_EQ(tracking::event_name(decoded.event), expected[i].name) << i;
    EXPECT_EQ(decoded.event.ad_id, expected[i].ad) << i;
    EXPECT_EQ(decoded.event.creative_id, expected[i].creative) << i;
    EXPECT_EQ(decoded.event.placement_id, 7u) << i;
    EXPECT_EQ(decoded.event.click_url, expected[i].click_url) << i;
    EXPECT_EQ(decoded.event.user_id, std::optional<std::string_view>("u-7")) << i;
    EXPECT_EQ(decoded.event.request_id[15], 16) << i;
    EXPECT_EQ(decoded.event.issued_at_s, kNow) << i;
    EXPECT_EQ(decoded.event.expires_at_s, kNow + kTtl) << i;
    EXPECT_EQ(core_keys_.tokens().decode(tokens[i], kNow + kTtl, storage).verdict, tracking::TokenVerdict::kExpired);
  }
}

TEST_F(ResponseWriterTest, TokensLeaveOutAUserIdThatMayNotBeCarried) {
  const std::string body = write(api_versions::kFeatures20250101, "fr", {}, std::nullopt);
  std::string storage;
  for (const std::string& token : tokens_in(body)) {
    const tracking::DecodedToken decoded = core_keys_.tokens().decode(token, kNow, storage);
    ASSERT_TRUE(decoded.ok());
    EXPECT_FALSE(decoded.event.user_id.has_value());
  }
}

TEST_F(ResponseWriterTest, UrlsStartWithTheBaseUrl) {
  const std::string body = write(api_versions::kFeatures20251101, "fr");
  size_t urls = 0;
  for (size_t at = body.find("/v1/tracking?t="); at != std::string::npos;
       at = body.find("/v1/tracking?t=", at + 1)) {
    EXPECT_EQ(body.substr(at - kBaseUrl.size() - 1, kBaseUrl.size() + 1), "\"" + std::string(kBaseUrl));
    ++urls;
  }
  EXPECT_EQ(urls, 6u);
}

TEST_F(ResponseWriterTest, WarningsAreNullWhenThereIsNothingToSay) {
  picks_ = {selection::Pick{ad(1001), 0}, {}};
  placements_[0] = PlacementDecision{"home_top", placement("home_top"), std::span(picks_).first(1)};
  languages_ = localization::parse_accept_language("fr");
  const ResponseInput input{*snapshot_, text_, api_versions::kFeatures20250101, languages_, {},
                            std::span(placements_).first(1), tracking::TokenIssue{}};
  std::string body;
  ASSERT_TRUE(writer_.write(input, body, outcome_));
  EXPECT_THAT(body, ::testing::EndsWith(R"(,"errors":null,"warnings":null})"));
  EXPECT_EQ(outcome_.language_fallbacks, 0u);
}

TEST_F(ResponseWriterTest, LanguageFallbackIsCountedPerPlacement) {
  write(api_versions::kFeatures20250101, "fr");  // 1002 has English only
  EXPECT_EQ(outcome_.language_fallbacks, 1u);
  write(api_versions::kFeatures20250101, "en");
  EXPECT_EQ(outcome_.language_fallbacks, 0u);
}

TEST_F(ResponseWriterTest, AFailedTokenFailsTheWrite) {
  // Longer than a token carries; the request reader bounds user ids to this very size.
  const std::string long_user(tracking::kMaxUserIdBytes + 1, 'u');
  picks_ = {selection::Pick{ad(1001), 0}, {}};
  placements_[0] = PlacementDecision{"home_top", placement("home_top"), std::span(picks_).first(1)};
  tracking::TokenIssue issue;
  issue.user_id = long_user;
  const ResponseInput input{*snapshot_, text_, api_versions::kFeatures20250101, languages_, {},
                            std::span(placements_).first(1), issue};
  std::string body;
  EXPECT_FALSE(writer_.write(input, body, outcome_));
}

TEST_F(ResponseWriterTest, AWarmWriterAllocatesNothing) {
  std::string body;
  body.reserve(64 * 1024);
  write(api_versions::kFeatures20251101, "fr");  // warms the codec's buffers
  picks_ = {selection::Pick{ad(1002), 0}, selection::Pick{ad(1001), 0}};
  placements_ = {PlacementDecision{"home_top", placement("home_top"), std::span(picks_)},
                 PlacementDecision{"nope", std::nullopt, {}},
                 PlacementDecision{"sidebar", placement("sidebar"), {}}};
  languages_ = localization::parse_accept_language("fr");
  const ResponseInput input{*snapshot_, text_, api_versions::kFeatures20251101, languages_,
                            kDeprecationWarning, placements_, tracking::TokenIssue{}};
  const uint64_t allocations = decision::testing::allocations_while([&] {
    body.clear();
    ASSERT_TRUE(writer_.write(input, body, outcome_));
  });
  EXPECT_EQ(allocations, 0u);
  EXPECT_GT(body.size(), 1000u);
}

}  // namespace
}  // namespace decision::response
