// Video creatives in the decision body (docs/video.md): the whole
// body of a decision serving one ad of each delivery (golden, tokens and sealed documents
// masked), then what a golden file cannot show: the document inside xmlBase64, the tag
// inside tagUrl, the milestones of videoEvents, and no allocation once warm.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <simdjson.h>

#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "decision/localization/accept_language.h"
#include "decision/response/response_writer.h"
#include "tests/support/allocation_count.h"
#include "tests/support/json_golden.h"
#include "tests/unit/decision/response/response_fixtures.h"

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

constexpr std::string_view kUserId = "video-response-test-user-7";

// The value of the first "<member>":"..." after from, or empty.
std::string_view string_member(std::string_view body, std::string_view member, size_t from = 0) {
  const std::string key = "\"" + std::string(member) + "\":\"";
  const size_t at = body.find(key, from);
  if (at == std::string_view::npos) return {};
  const size_t begin = at + key.size();
  return body.substr(begin, body.find('"', begin) - begin);
}

// body with the sealed parts masked: tokens, the base64 document, the tag query.
std::string masked(std::string_view body) {
  std::string out = without_tokens(body);
  for (std::string_view member : {"xmlBase64", "tagUrl"}) {
    const std::string key = "\"" + std::string(member) + "\":\"";
    const size_t at = out.find(key);
    if (at == std::string::npos) continue;
    size_t begin = at + key.size();
    if (member == "tagUrl") begin = out.find('?', begin) + 1;
    out.replace(begin, out.find('"', begin) - begin, "<sealed>");
  }
  return out;
}

std::string base64_decoded(std::string_view text) {
  std::string out(text.size() / 4 * 3, '\0');
  const int size = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                   reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  EXPECT_GE(size, 0);
  size_t padding = 0;
  while (padding < 2 && text.size() > padding && text[text.size() - 1 - padding] == '=') ++padding;
  out.resize(static_cast<size_t>(size) - padding);
  return out;
}

class VideoResponseTest : public ::testing::Test {
 protected:
  VideoResponseTest() : snapshot_(response_catalog()), text_(*snapshot_) {}

  // preroll: 1003 (json), 1004 (vast_xml), 1005 (vast_tag).
  std::string write(std::optional<std::string_view> accept = "fr",
                    const api_versions::VersionFeatures& features = api_versions::kFeatures20251101) {
    picks_ = {selection::Pick{*snapshot_->ad_index(1003), 0}, selection::Pick{*snapshot_->ad_index(1004), 0},
              selection::Pick{*snapshot_->ad_index(1005), 0}};
    placements_ = {PlacementDecision{"preroll", *snapshot_->index().placement_index("preroll"), std::span(picks_)}};
    languages_ = localization::parse_accept_language(accept);
    issue_.request_id = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    // Long and distinctive: a short id such as "u-7" appeared by chance in a tag's base64url
    // once in about a thousand runs, failing the check that it never shows in the URL.
    issue_.user_id = kUserId;
    issue_.now_s = kNow;
    const ResponseInput input{*snapshot_, text_, features, languages_, {}, placements_, issue_};
    std::string body;
    EXPECT_TRUE(writer_.write(input, body, outcome_));
    return body;
  }

  simdjson::dom::array creatives(const std::string& body) {
    simdjson::dom::element root;
    EXPECT_EQ(parser_.parse(simdjson::padded_string(body)).get(root), simdjson::SUCCESS) << body;
    return root["data"].at(0)["creatives"].get_array();
  }

  std::shared_ptr<const catalog::CatalogSnapshot> snapshot_;
  CatalogText text_;
  tracking::KeyRing keys_ = response_keys();
  tracking::CoreKeys core_keys_{keys_};
  TrackingLinks links_{core_keys_, kBaseUrl, kTtl};
  video::VastDocumentWriter documents_{core_keys_, kBaseUrl, kTtl};
  VideoFields video_{documents_, core_keys_, kBaseUrl, kTagTtl};
  ResponseWriter writer_{links_, video_};
  std::array<selection::Pick, 3> picks_{};
  std::array<PlacementDecision, 1> placements_{};
  localization::LanguagePreferences languages_;
  tracking::TokenIssue issue_;
  WriteOutcome outcome_;
  simdjson::dom::parser parser_;
};

TEST_F(VideoResponseTest, WholeBodyOfEachDelivery) {
  test_support::ExpectJsonGolden(std::string(DECISIOND_RESPONSE_GOLDEN_DIR) + "/decision_video_2025-11-01.json",
                                 masked(write()));
}

TEST_F(VideoResponseTest, EveryVideoCreativeHasDeliveryVastAndVideoMetadata) {
  const std::string body = write();
  const simdjson::dom::array list = creatives(body);
  ASSERT_EQ(list.size(), 3u);
  const std::string_view deliveries[] = {"json", "vast_xml", "vast_tag"};
  size_t i = 0;
  for (simdjson::dom::element creative : list) {
    EXPECT_EQ(std::string_view(creative["delivery"].get_string()), deliveries[i]);
    EXPECT_TRUE(creative["vast"].is_object());
    EXPECT_EQ(std::string_view(creative["metadata"]["format"].get_string()), "video");
    EXPECT_TRUE(creative["tracking"]["videoEvents"].is_array());
    ++i;
  }
  // 1003: 30.5 s, 16:9, skippable at 25 % of the duration.
  simdjson::dom::element json = list.at(0);
  EXPECT_EQ(double(json["metadata"]["duration"].get_double()), 30.5);
  EXPECT_EQ(std::string_view(json["metadata"]["aspect_ratio"].get_string()), "16:9");
  EXPECT_TRUE(bool(json["metadata"]["is_skippable"].get_bool()));
  EXPECT_EQ(double(json["metadata"]["skip_offset_seconds"].get_double()), 7.625);
  EXPECT_EQ(json["vast"].get_object().size(), 0u);
  // 1004: not skippable, no aspect ratio, so neither member.
  simdjson::dom::element xml = list.at(1);
  EXPECT_FALSE(bool(xml["metadata"]["is_skippable"].get_bool()));
  EXPECT_EQ(xml["metadata"]["skip_offset_seconds"].error(), simdjson::NO_SUCH_FIELD);
  EXPECT_EQ(xml["metadata"]["aspect_ratio"].error(), simdjson::NO_SUCH_FIELD);
  EXPECT_EQ(xml["vast"]["xmlBase64"].error(), simdjson::SUCCESS);
  EXPECT_EQ(list.at(2)["vast"]["tagUrl"].error(), simdjson::SUCCESS);
  EXPECT_EQ(double(list.at(2)["metadata"]["skip_offset_seconds"].get_double()), 5.0);
}

TEST_F(VideoResponseTest, JsonDeliveryCarriesItsBeaconsMediaAndVerification) {
  const std::string body = write();
  simdjson::dom::element json = creatives(body).at(0);
  EXPECT_EQ(json["tracking"]["impressions"].get_array().size(), 1u);
  EXPECT_EQ(json["tracking"]["clicks"].get_array().size(), 1u);
  std::vector<std::string_view> milestones;
  for (simdjson::dom::element item : json["tracking"]["videoEvents"].get_array()) {
    milestones.push_back(item["key"].get_string());
  }
  EXPECT_EQ(milestones, (std::vector<std::string_view>{"start", "first_quartile", "midpoint", "third_quartile",
                                                        "complete", "skip"}));
  EXPECT_EQ(json["verificationScriptResources"].get_array().size(), 1u);
  std::vector<std::pair<std::string_view, std::string_view>> contents;
  for (simdjson::dom::element item : json["contents"].get_array()) {
    contents.emplace_back(item["key"].get_string(), item["value"].get_string());
  }
  const std::vector<std::pair<std::string_view, std::string_view>> expected = {
      {"title", "Lisbonne ]]> en 4K"},
      {"media_file_1", "https://cdn.example.com/v.mp4"},
      {"media_file_1_delivery", "progressive"},
      {"media_file_1_width", "1280"},
      {"media_file_1_height", "720"},
      {"media_file_1_bitrate", "2500"},
      {"media_file_2", "https://cdn.example.com/v.m3u8"},
      {"media_file_2_delivery", "streaming"},
      {"media_file_2_width", "1920"},
      {"media_file_2_height", "1080"},
      {"companion_1_image", "https://cdn.example.com/c.jpg"},
      {"companion_1_width", "300"},
      {"companion_1_height", "250"},
      {"companion_1_click_url", "https://acme.example.com/c"},
  };
  EXPECT_EQ(contents, expected);
  EXPECT_EQ(std::string_view(json["contents"].at(1)["type"].get_string()), "video/mp4");
  EXPECT_EQ(std::string_view(json["contents"].at(10)["type"].get_string()), "image/jpeg");
}

TEST_F(VideoResponseTest, DocumentDeliveriesLeaveTheirTrackingAndVerificationToTheDocument) {
  const std::string body = write();
  const simdjson::dom::array list = creatives(body);
  for (size_t i : {1u, 2u}) {
    simdjson::dom::element creative = list.at(i);
    EXPECT_EQ(creative["tracking"]["impressions"].get_array().size(), 0u) << i;
    EXPECT_EQ(creative["tracking"]["clicks"].get_array().size(), 0u) << i;
    EXPECT_EQ(creative["tracking"]["videoEvents"].get_array().size(), 0u) << i;
    EXPECT_EQ(creative["verificationScriptResources"].get_array().size(), 0u) << i;
  }
  // Custom events have no place in VAST: they stay in the JSON.
  EXPECT_TRUE(list.at(1)["tracking"]["custom"].is_null());
}

TEST_F(VideoResponseTest, XmlBase64IsTheDocumentOfThisDecision) {
  const std::string body = write();
  const std::string document = base64_decoded(string_member(body, "xmlBase64"));
  EXPECT_TRUE(document.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<VAST xmlns=\"http://www.iab.com/VAST\" version=\"4.2\">"));
  EXPECT_NE(document.find("<AdServingId>0102030405060708090a0b0c0d0e0f10-1004</AdServingId>"), std::string::npos);
  EXPECT_NE(document.find("<AdTitle>Short</AdTitle>"), std::string::npos);
  std::string storage;
  const std::vector<std::string> tokens = tokens_in(document);
  ASSERT_EQ(tokens.size(), 9u);  // error, impression, verification, 5 milestones, click
  for (const std::string& token : tokens) {
    const tracking::DecodedToken decoded = core_keys_.tokens().decode(token, kNow, storage);
    ASSERT_TRUE(decoded.ok());
    EXPECT_EQ(decoded.event.ad_id, 1004u);
    EXPECT_EQ(decoded.event.placement_id, 9u);
    EXPECT_EQ(decoded.event.user_id, std::optional<std::string_view>(kUserId));
  }
}

TEST_F(VideoResponseTest, TagUrlIsSignedAndSealsTheDecisionAndItsLanguage) {
  const std::string body = write("fr");
  const std::string_view url = string_member(body, "tagUrl");
  ASSERT_TRUE(url.starts_with(std::string(kBaseUrl) + "/v1/vast?d=")) << url;
  const tracking::VastTagCheck check = core_keys_.tags().check(url.substr(url.find('?') + 1), kNow);
  ASSERT_EQ(check.verdict, tracking::VastTagVerdict::kValid);
  EXPECT_EQ(check.expires_at_s, kNow + kTagTtl);
  EXPECT_EQ(check.payload.ad_id, 1005u);
  EXPECT_EQ(check.payload.creative_id, 2005u);
  EXPECT_EQ(check.payload.placement_id, 9u);
  EXPECT_EQ(check.payload.request_id, issue_.request_id);
  EXPECT_EQ(check.payload.issued_at_s, kNow);
  EXPECT_EQ(check.payload.language, "fr");
  EXPECT_EQ(check.payload.user_id, std::optional<std::string_view>(kUserId));
  // The user id never shows in the URL.
  EXPECT_EQ(url.find(kUserId), std::string_view::npos);
  EXPECT_EQ(core_keys_.tags().check(url.substr(url.find('?') + 1), kNow + kTagTtl).verdict, tracking::VastTagVerdict::kExpired);
}

TEST_F(VideoResponseTest, WarmWritesAllocateNothing) {
  write();
  write();
  const ResponseInput input{*snapshot_, text_, api_versions::kFeatures20251101, languages_, {}, placements_, issue_};
  std::string body;
  body.reserve(64 * 1024);
  ASSERT_TRUE(writer_.write(input, body, outcome_));
  body.clear();
  EXPECT_EQ(decision::testing::allocations_while([&] { ASSERT_TRUE(writer_.write(input, body, outcome_)); }), 0u);
}

}  // namespace
}  // namespace decision::response
