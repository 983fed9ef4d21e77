// The VAST 4.2 document of a served video ad: whole documents byte for byte (golden files
// in golden/, tokens masked), each checked against the IAB's schema; what every sealed URL
// says; the no-fill document; and no allocation once warm.
// DECISIOND_UPDATE_GOLDEN=1 rewrites the golden files from the current output; review the
// diff before committing it.
#include "decision/video/vast_document.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

#include "decision/catalog/loader.h"
#include "tests/support/allocation_count.h"

namespace decision::video {
namespace {

constexpr int64_t kNow = 1'795'000'000;
constexpr int64_t kTtl = 3600;
constexpr std::string_view kBaseUrl = "https://ads.example.test";

// Ad 1: everything a document can hold, with markup and CDATA ends in its text and URLs.
// Ad 2: the least a video ad has.
constexpr std::string_view kCatalog = R"json({
  "revision": "vast-test.1",
  "defaultLanguage": "en",
  "priorities": [{"key": "standard", "weight": 50}],
  "advertisers": [{"id": 42, "name": "Acme & \"Sons\" <Air>", "legalName": "Acme ]]> Ltd",
                   "logoUrl": "https://cdn.example.com/logo.png?a=1&b=]]>"},
                  {"id": 43, "name": "Zürich Café"}],
  "templates": [{"id": 4, "key": "player", "style": "dark"}],
  "placements": [{"id": 9, "key": "preroll"}],
  "ads": [
    {
      "id": 1, "advertiserId": 42, "placementIds": [9], "templateId": 4, "priority": "standard",
      "weight": 1, "format": "video", "start": "2026-01-01T00:00:00Z",
      "creatives": [{
        "id": 10,
        "contents": {"en": [{"key": "cta", "value": "Go"}, {"key": "title", "value": "Fly <now> & \"save\" ]]> \u0001 東京"},
                            {"key": "description", "value": "Two lines\r\nand a tab\t."}],
                     "fr": [{"key": "title", "value": "Envolez-vous"}]},
        "clickUrl": "https://acme.example.com/go?a=1&b=]]>&c=<d>",
        "verification": [
          {"vendorKey": "iabtechlab.com-omid", "scriptUrl": "https://verify.example.com/omid.js",
           "verificationParameters": "{\"c\":1,\"s\":\"<x>&y]]>\"}", "browserOptional": true},
          {"vendorKey": "vendor \"two\"", "url": "https://v.example.com/s.js?]]>"}
        ],
        "video": {
          "delivery": "vast_xml",
          "mediaFiles": [
            {"url": "https://cdn.example.com/v.mp4?k=]]>", "type": "video/mp4", "width": 1280, "height": 720, "bitrate": 2500},
            {"url": "https://cdn.example.com/v.m3u8", "type": "application/x-mpegURL", "width": 1920, "height": 1080}
          ],
          "duration": 30.5, "aspectRatio": "16:9", "skipOffset": "25%",
          "companions": [
            {"width": 300, "height": 250, "imageUrl": "https://cdn.example.com/c.png", "clickUrl": "https://acme.example.com/c?x=<1>"},
            {"width": 728, "height": 90, "imageUrl": "https://cdn.example.com/banner", "type": "image/webp"}
          ]
        }
      }]
    },
    {
      "id": 2, "advertiserId": 43, "placementIds": [9], "templateId": 4, "priority": "standard",
      "weight": 1, "format": "video", "start": "2026-01-01T00:00:00Z",
      "creatives": [{
        "id": 20,
        "contents": {"en": [{"key": "cta", "value": "Watch"}]},
        "video": {
          "delivery": "vast_tag",
          "mediaFiles": [{"url": "https://cdn.example.com/s.webm", "type": "video/webm", "width": 640, "height": 360}],
          "duration": 6, "skipOffset": "00:00:05"
        }
      }]
    },
    {
      "id": 3, "advertiserId": 43, "placementIds": [9], "templateId": 4, "priority": "standard",
      "weight": 1, "format": "video", "start": "2026-01-01T00:00:00Z",
      "creatives": [{
        "id": 30,
        "contents": {"en": [{"key": "title", "value": " "}, {"key": "description", "value": " \n "}]},
        "video": {
          "delivery": "vast_xml",
          "mediaFiles": [{"url": "https://cdn.example.com/e.mp4", "type": "video/mp4", "width": 640, "height": 360}],
          "duration": 10
        }
      }]
    }
  ]
})json";

tracking::KeyRing test_keys() {
  tracking::KeyEntry entry;
  entry.id = 5;
  for (size_t i = 0; i < tracking::kSecretKeyBytes; ++i) {
    entry.aes_key[i] = static_cast<uint8_t>(i * 3 + 1);
    entry.hmac_key[i] = static_cast<uint8_t>(i * 11 + 2);
  }
  std::vector<tracking::KeyEntry> entries{entry};
  return *tracking::KeyRing::from_entries(std::move(entries));
}

bool is_base64url(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

std::vector<std::string> tokens_in(std::string_view document) {
  std::vector<std::string> tokens;
  for (size_t at = document.find("?t="); at != std::string_view::npos; at = document.find("?t=", at)) {
    at += 3;
    size_t end = at;
    while (end < document.size() && is_base64url(document[end])) ++end;
    tokens.emplace_back(document.substr(at, end - at));
  }
  return tokens;
}

std::string masked(std::string_view document) {
  return std::regex_replace(std::string(document), std::regex("\\?t=[A-Za-z0-9_-]+"), "?t=<token>");
}

// libxml2 refuses '[' and ']' outside a URL's fragment in xs:anyURI, although XML Schema
// 1.0 defines anyURI's lexical space through XLink's escaping, which makes them legal: the
// VAST macros [ERRORCODE] and [REASON] must stay literal for players to replace them. The
// schema is checked on the document with only those macros percent-encoded.
std::string xmllint_report(const std::string& document) {
  char path[] = "/tmp/vast-document-XXXXXX";
  const int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  close(fd);
  std::ofstream(path, std::ios::binary)
      << std::regex_replace(document, std::regex("\\[(ERRORCODE|REASON)\\]"), "%5B$1%5D");
  const std::string report = std::string(path) + ".out";
  const std::string command = "xmllint --noout --schema '" + std::string(VAST_XSD_PATH) + "' '" + path + "' > '" +
                              report + "' 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(report);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  std::remove(report.c_str());
  return status == 0 ? std::string() : text.str();
}

class VastDocumentTest : public ::testing::Test {
 protected:
  VastDocumentTest() {
    catalog::LoadResult loaded = catalog::load_catalog(kCatalog);
    EXPECT_TRUE(loaded.errors.empty()) << loaded.errors.front().to_string();
    snapshot_ = loaded.snapshot;
    issue_.request_id = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    issue_.user_id = "u-7";
    issue_.now_s = kNow;
  }

  std::string document(uint64_t ad_id, uint32_t language = 0) {
    std::string out;
    EXPECT_TRUE(writer_.write(served(ad_id, language), issue_, out));
    return out;
  }

  VastAd served(uint64_t ad_id, uint32_t language = 0) const {
    return VastAd{*snapshot_, *snapshot_->ad_index(ad_id), 0, 0, language};
  }

  void expect_golden(std::string_view name, const std::string& text) {
    const std::string path = std::string(DECISIOND_VIDEO_GOLDEN_DIR) + "/" + std::string(name);
    if (std::getenv("DECISIOND_UPDATE_GOLDEN") != nullptr) std::ofstream(path, std::ios::binary) << text;
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << "missing golden file " << path;
    std::stringstream expected;
    expected << in.rdbuf();
    EXPECT_EQ(text, expected.str()) << "golden file " << name;
  }

  std::shared_ptr<const catalog::CatalogSnapshot> snapshot_;
  tracking::KeyRing keys_ = test_keys();
  tracking::CoreKeys core_keys_{keys_};
  VastDocumentWriter writer_{core_keys_, kBaseUrl, kTtl};
  tracking::TokenIssue issue_;
};

TEST_F(VastDocumentTest, FullDocument) { expect_golden("full.xml", masked(document(1))); }

TEST_F(VastDocumentTest, MinimalDocument) { expect_golden("minimal.xml", masked(document(2))); }

TEST_F(VastDocumentTest, NoFillDocument) {
  std::string out;
  VastDocumentWriter::write_no_fill(out);
  EXPECT_EQ(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<VAST xmlns=\"http://www.iab.com/VAST\" version=\"4.2\"></VAST>");
  EXPECT_EQ(xmllint_report(out), "");
}

TEST_F(VastDocumentTest, DocumentsValidateAgainstTheVast42Schema) {
  EXPECT_EQ(xmllint_report(document(1)), "");
  EXPECT_EQ(xmllint_report(document(1, 1)), "");
  EXPECT_EQ(xmllint_report(document(2)), "");
}

TEST_F(VastDocumentTest, TitleIsTheContentTitleOfTheChosenLanguageElseItsFirstItem) {
  EXPECT_NE(document(1, 1).find("<AdTitle>Envolez-vous</AdTitle>"), std::string::npos);
  EXPECT_NE(document(2).find("<AdTitle>Watch</AdTitle>"), std::string::npos);
}

TEST_F(VastDocumentTest, NoElementIsWrittenEmpty) {
  // Players warn about empty elements: an empty title falls back to the ad's id, an empty
  // description is left out.
  const std::string text = document(3);
  EXPECT_NE(text.find("<AdTitle>ad_3</AdTitle>"), std::string::npos) << text;
  EXPECT_EQ(text.find("<Description>"), std::string::npos) << text;
  EXPECT_EQ(xmllint_report(text), "");
}

TEST_F(VastDocumentTest, EveryTrackingUrlIsSealedForThisAdWithItsKind) {
  const std::string text = document(1);
  const std::vector<std::string> tokens = tokens_in(text);
  struct Expected {
    tracking::EventKind kind;
    std::string_view name;
    std::string_view vendor;
  };
  const Expected expected[] = {
      {tracking::EventKind::kError, "error", ""},
      {tracking::EventKind::kImpression, "impression", ""},
      {tracking::EventKind::kVerificationNotExecuted, "verification_not_executed", "iabtechlab.com-omid"},
      {tracking::EventKind::kVerificationNotExecuted, "verification_not_executed", "vendor \"two\""},
      {tracking::EventKind::kClick, "click", ""},  // the companion with a click URL
      {tracking::EventKind::kVideo, "start", ""},
      {tracking::EventKind::kVideo, "first_quartile", ""},
      {tracking::EventKind::kVideo, "midpoint", ""},
      {tracking::EventKind::kVideo, "third_quartile", ""},
      {tracking::EventKind::kVideo, "complete", ""},
      {tracking::EventKind::kVideo, "skip", ""},
      {tracking::EventKind::kClick, "click", ""},  // ClickTracking
  };
  ASSERT_EQ(tokens.size(), std::size(expected));
  std::string storage;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const tracking::DecodedToken decoded = core_keys_.tokens().decode(tokens[i], kNow, storage);
    ASSERT_TRUE(decoded.ok()) << i;
    EXPECT_EQ(decoded.event.kind, expected[i].kind) << i;
    EXPECT_EQ(tracking::event_name(decoded.event), expected[i].name) << i;
    EXPECT_EQ(decoded.event.vendor, expected[i].vendor) << i;
    EXPECT_EQ(decoded.event.ad_id, 1u) << i;
    EXPECT_EQ(decoded.event.creative_id, 10u) << i;
    EXPECT_EQ(decoded.event.placement_id, 9u) << i;
    EXPECT_EQ(decoded.event.request_id, issue_.request_id) << i;
    EXPECT_EQ(decoded.event.user_id, std::optional<std::string_view>("u-7")) << i;
    EXPECT_EQ(decoded.event.expires_at_s, kNow + kTtl) << i;
    // Clicks in a document are beacons: the player itself opens ClickThrough.
    EXPECT_EQ(decoded.event.click_url, "") << i;
  }
}

TEST_F(VastDocumentTest, MacrosFollowTheirTokens) {
  const std::string text = document(1);
  EXPECT_EQ(std::regex_search(text, std::regex("<Error><!\\[CDATA\\[https://ads\\.example\\.test/v1/tracking\\?t=[A-Za-z0-9_-]+&code=\\[ERRORCODE\\]\\]\\]></Error>")), true);
  const std::regex reason("verificationNotExecuted\"><!\\[CDATA\\[[^\\]]+&reason=\\[REASON\\]\\]\\]>");
  EXPECT_EQ(std::distance(std::sregex_iterator(text.begin(), text.end(), reason), std::sregex_iterator()), 2);
}

TEST_F(VastDocumentTest, AdServingIdIsTheRequestAndTheAd) {
  EXPECT_NE(document(2).find("<AdServingId>0102030405060708090a0b0c0d0e0f10-2</AdServingId>"), std::string::npos);
}

TEST_F(VastDocumentTest, AFailedTokenFailsTheDocument) {
  issue_.user_id = std::string_view(std::string(tracking::kMaxUserIdBytes + 1, 'u'));
  std::string out;
  EXPECT_FALSE(writer_.write(served(1), issue_, out));
}

TEST_F(VastDocumentTest, AWarmWriterAllocatesNothing) {
  std::string out;
  out.reserve(16 * 1024);
  ASSERT_TRUE(writer_.write(served(1), issue_, out));
  out.clear();
  EXPECT_EQ(decision::testing::allocations_while([&] { ASSERT_TRUE(writer_.write(served(1), issue_, out)); }), 0u);
}

}  // namespace
}  // namespace decision::video
