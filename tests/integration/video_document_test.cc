// What a video creative says, whole, per delivery mode (docs/video.md): the VAST 4.2 document
// of a vast_xml creative (its xmlBase64 decoded) and of a vast_tag creative (its tagUrl
// fetched), and the JSON of a json-delivery creative, each compared with a golden text once
// tokens and request ids are replaced by placeholders; then every tracking token of a
// document opened with the server's keys, to check it is of the kind its element says, for
// the served ad, the decision's request, and --tracking-ttl.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/video_catalog.h"

namespace integration {
namespace {

using simdjson::dom::element;

// Ad 3 of video_catalog.h: companions (one clickable), a verification with parameters,
// skippable at 25%, a description; XML-special characters in its title and description.
constexpr char kVastXmlGolden[] = R"xml(
<?xml version="1.0" encoding="UTF-8"?>
<VAST xmlns="http://www.iab.com/VAST" version="4.2">
  <Ad id="ad_3" adType="video">
    <InLine>
      <AdSystem>decisiond</AdSystem>
      <Error><![CDATA[https://ads.example.test/v1/tracking?t={token}&code=[ERRORCODE]]]></Error>
      <Extensions>
        <Extension type="decisiond-metadata">
          <Metadata>
            <adId>ad_3</adId>
            <creativeId>creative_30</creativeId>
            <placementId>placement_7</placementId>
            <templateId>template_1</templateId>
            <priority>standard</priority>
            <style>default</style>
            <format>video</format>
            <duration>20</duration>
            <aspect_ratio>16:9</aspect_ratio>
            <is_skippable>true</is_skippable>
            <skip_offset_seconds>5</skip_offset_seconds>
          </Metadata>
        </Extension>
        <Extension type="decisiond-advertiser">
          <Advertiser>
            <id>advertiser_1</id>
            <name>Acme Video</name>
            <legalName>Acme Video Ltd</legalName>
            <logoUrl><![CDATA[https://cdn.example.test/acme.png]]></logoUrl>
          </Advertiser>
        </Extension>
      </Extensions>
      <Impression id="decisiond"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Impression>
      <AdServingId>{request_id}-3</AdServingId>
      <AdTitle>Xml video &amp; more</AdTitle>
      <AdVerifications>
        <Verification vendor="xml-vendor">
          <JavaScriptResource apiFramework="omid" browserOptional="true"><![CDATA[https://verify.example.test/x.js]]></JavaScriptResource>
          <TrackingEvents>
            <Tracking event="verificationNotExecuted"><![CDATA[https://ads.example.test/v1/tracking?t={token}&reason=[REASON]]]></Tracking>
          </TrackingEvents>
          <VerificationParameters><![CDATA[{"x":3}]]></VerificationParameters>
        </Verification>
      </AdVerifications>
      <Advertiser>Acme Video</Advertiser>
      <Creatives>
        <Creative id="creative_30" adId="ad_3">
          <CompanionAds>
            <Companion width="728" height="90">
              <StaticResource creativeType="image/jpeg"><![CDATA[https://cdn.example.test/c/3.jpg]]></StaticResource>
              <CompanionClickThrough><![CDATA[https://three.example.test/companion]]></CompanionClickThrough>
              <CompanionClickTracking id="decisiond"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></CompanionClickTracking>
            </Companion>
            <Companion width="300" height="250">
              <StaticResource creativeType="image/png"><![CDATA[https://cdn.example.test/c/3.png]]></StaticResource>
            </Companion>
          </CompanionAds>
          <Linear skipoffset="25%">
            <TrackingEvents>
              <Tracking event="start"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="firstQuartile"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="midpoint"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="thirdQuartile"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="complete"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="skip"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
            </TrackingEvents>
            <Duration>00:00:20.000</Duration>
            <MediaFiles>
              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" bitrate="800"><![CDATA[https://cdn.example.test/v/3.mp4]]></MediaFile>
            </MediaFiles>
            <VideoClicks>
              <ClickTracking id="decisiond"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></ClickTracking>
              <ClickThrough><![CDATA[https://three.example.test/landing?x=1&y=2]]></ClickThrough>
            </VideoClicks>
          </Linear>
          <UniversalAdId idRegistry="decisiond">creative_30</UniversalAdId>
        </Creative>
      </Creatives>
      <Description>Thirty &lt;seconds&gt;</Description>
    </InLine>
  </Ad>
</VAST>
)xml";

// Ad 4: the least a document has: no companion, no verification, not skippable, no click
// URL (so no ClickThrough), no description, an advertiser without legal name or logo.
constexpr char kVastTagGolden[] = R"xml(
<?xml version="1.0" encoding="UTF-8"?>
<VAST xmlns="http://www.iab.com/VAST" version="4.2">
  <Ad id="ad_4" adType="video">
    <InLine>
      <AdSystem>decisiond</AdSystem>
      <Error><![CDATA[https://ads.example.test/v1/tracking?t={token}&code=[ERRORCODE]]]></Error>
      <Extensions>
        <Extension type="decisiond-metadata">
          <Metadata>
            <adId>ad_4</adId>
            <creativeId>creative_40</creativeId>
            <placementId>placement_7</placementId>
            <templateId>template_1</templateId>
            <priority>standard</priority>
            <style>default</style>
            <format>video</format>
            <duration>15.5</duration>
            <is_skippable>false</is_skippable>
          </Metadata>
        </Extension>
        <Extension type="decisiond-advertiser">
          <Advertiser>
            <id>advertiser_2</id>
            <name>Plain</name>
          </Advertiser>
        </Extension>
      </Extensions>
      <Impression id="decisiond"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Impression>
      <AdServingId>{request_id}-4</AdServingId>
      <AdTitle>Tag video</AdTitle>
      <Advertiser>Plain</Advertiser>
      <Creatives>
        <Creative id="creative_40" adId="ad_4">
          <Linear>
            <TrackingEvents>
              <Tracking event="start"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="firstQuartile"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="midpoint"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="thirdQuartile"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
              <Tracking event="complete"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></Tracking>
            </TrackingEvents>
            <Duration>00:00:15.500</Duration>
            <MediaFiles>
              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[https://cdn.example.test/v/4.mp4]]></MediaFile>
            </MediaFiles>
            <VideoClicks>
              <ClickTracking id="decisiond"><![CDATA[https://ads.example.test/v1/tracking?t={token}]]></ClickTracking>
            </VideoClicks>
          </Linear>
          <UniversalAdId idRegistry="decisiond">creative_40</UniversalAdId>
        </Creative>
      </Creatives>
    </InLine>
  </Ad>
</VAST>
)xml";

// Ad 2 as JSON, one line per value, object members in key order.
constexpr char kJsonDeliveryGolden[] = R"json(
advertiser.id: "advertiser_1"
advertiser.legalName: "Acme Video Ltd"
advertiser.logoUrl: "https://cdn.example.test/acme.png"
advertiser.name: "Acme Video"
contents[0]: {"key": "title", "type": "text", "value": "Json video"}
contents[1]: {"key": "media_file_1", "type": "video/mp4", "value": "https://cdn.example.test/v/2.mp4"}
contents[2]: {"key": "media_file_1_delivery", "type": "text", "value": "progressive"}
contents[3]: {"key": "media_file_1_width", "type": "number", "value": "1280"}
contents[4]: {"key": "media_file_1_height", "type": "number", "value": "720"}
contents[5]: {"key": "media_file_1_bitrate", "type": "number", "value": "2500"}
contents[6]: {"key": "media_file_2", "type": "application/x-mpegURL", "value": "https://cdn.example.test/v/2.m3u8"}
contents[7]: {"key": "media_file_2_delivery", "type": "text", "value": "streaming"}
contents[8]: {"key": "media_file_2_width", "type": "number", "value": "1920"}
contents[9]: {"key": "media_file_2_height", "type": "number", "value": "1080"}
contents[10]: {"key": "companion_1_image", "type": "image/png", "value": "https://cdn.example.test/c/2.png"}
contents[11]: {"key": "companion_1_width", "type": "number", "value": "300"}
contents[12]: {"key": "companion_1_height", "type": "number", "value": "250"}
contents[13]: {"key": "companion_1_click_url", "type": "url", "value": "https://two.example.test/companion"}
delivery: "json"
metadata.adId: "ad_2"
metadata.aspect_ratio: "16:9"
metadata.creativeId: "creative_20"
metadata.duration: 30
metadata.format: "video"
metadata.is_skippable: true
metadata.placementId: "placement_7"
metadata.priority: "standard"
metadata.skip_offset_seconds: 5
metadata.style: "default"
metadata.templateId: "template_1"
template.key: "player"
template.style: "default"
tracking.clicks[0]: {"key": "click", "value": "https://ads.example.test/v1/tracking?t={token}"}
tracking.custom[0]: {"key": "share", "value": "https://ads.example.test/v1/tracking?t={token}"}
tracking.impressions[0]: {"key": "impression", "value": "https://ads.example.test/v1/tracking?t={token}"}
tracking.videoEvents[0]: {"key": "start", "value": "https://ads.example.test/v1/tracking?t={token}"}
tracking.videoEvents[1]: {"key": "first_quartile", "value": "https://ads.example.test/v1/tracking?t={token}"}
tracking.videoEvents[2]: {"key": "midpoint", "value": "https://ads.example.test/v1/tracking?t={token}"}
tracking.videoEvents[3]: {"key": "third_quartile", "value": "https://ads.example.test/v1/tracking?t={token}"}
tracking.videoEvents[4]: {"key": "complete", "value": "https://ads.example.test/v1/tracking?t={token}"}
tracking.videoEvents[5]: {"key": "skip", "value": "https://ads.example.test/v1/tracking?t={token}"}
vast: {}
verificationScriptResources[0]: {"parameters": "j=2", "scriptUrl": "https://verify.example.test/j.js", "url": "https://verify.example.test/j.js", "vendorKey": "json-vendor", "verificationParameters": "j=2"}
)json";

using Members = std::vector<std::pair<std::string, element>>;

Members sorted_members(element object) {
  Members members;
  for (simdjson::dom::key_value_pair field : simdjson::dom::object(object)) {
    members.emplace_back(std::string(field.key), field.value);
  }
  std::sort(members.begin(), members.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return members;
}

bool is_scalar(element value) {
  return !value.is_object() && !value.is_array();
}

// A scalar as JSON text, tracking tokens replaced by {token}.
std::string scalar_text(element value) {
  return value.is_string() ? without_tokens(simdjson::minify(value)) : simdjson::minify(value);
}

// "path: value" for every scalar of a JSON value, object members in key order; an array
// item that is an object of scalars on one line, {"key": value, ...}; an empty object or
// array as {} or [].
void flatten(element value, const std::string& path, bool array_item, std::vector<std::string>& lines) {
  if (value.is_object()) {
    const Members members = sorted_members(value);
    if (members.empty()) {
      lines.push_back(path + ": {}");
    } else if (array_item && std::all_of(members.begin(), members.end(), [](const auto& m) { return is_scalar(m.second); })) {
      std::string line = path + ": {";
      for (size_t i = 0; i < members.size(); ++i) {
        line += (i ? ", \"" : "\"") + members[i].first + "\": " + scalar_text(members[i].second);
      }
      lines.push_back(line + "}");
    } else {
      for (const auto& [key, field] : members) flatten(field, path.empty() ? key : path + "." + key, false, lines);
    }
  } else if (value.is_array()) {
    const std::vector<element> items = array_items(value);
    if (items.empty()) lines.push_back(path + ": []");
    for (size_t i = 0; i < items.size(); ++i) flatten(items[i], path + "[" + std::to_string(i) + "]", true, lines);
  } else {
    lines.push_back(path + ": " + scalar_text(value));
  }
}

std::string flattened(element value) {
  std::vector<std::string> lines;
  flatten(value, "", false, lines);
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// The golden as written between its raw string's first and last newline.
std::string golden(std::string_view text) {
  text.remove_prefix(1);
  if (text.ends_with('\n')) text.remove_suffix(1);
  return std::string(text);
}

std::string hex(const tracking::RequestId& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

// What a document's tracking URL must open as.
struct ExpectedUrl {
  std::string element;
  tracking::EventKind kind;
  std::string detail;  // the milestone's name (video) or the vendor (verification)
  std::string suffix;  // what follows the token in the URL
};

class VideoDocument : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>(standard_flags(
        {"--catalog=" + catalog_.path(), state_.flag(), std::string("--base-url=") + kVideoBaseUrl}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
    DecisionClient client(*server_);
    const CurlReply reply = decide_video(client, kVideoVersion);
    ASSERT_EQ(reply.status, 200) << reply.body;
    decision_ = std::make_unique<VideoDecision>(reply.body);
    ASSERT_TRUE(decision_->ok()) << reply.body;
    for (std::string_view ad : {"ad_2", "ad_3", "ad_4"}) ASSERT_TRUE(decision_->creative(ad)) << ad << " not served";
  }

  std::string xml_document() {
    const element vast = *member(*decision_->creative("ad_3"), "vast");
    const std::optional<std::string> document = decode_base64(string_member(vast, "xmlBase64").value_or(""));
    EXPECT_TRUE(document) << "xmlBase64 is not base64: " << vast;
    return document.value_or("");
  }

  std::string tag_document() {
    const element vast = *member(*decision_->creative("ad_4"), "vast");
    const std::string path = path_of(string_member(vast, "tagUrl").value_or(""));
    EXPECT_FALSE(path.empty()) << vast;
    TrackingClient client(*server_);
    const std::optional<HttpReply> reply = client.request("GET", path);
    if (!reply) {
      ADD_FAILURE() << client.last_error();
      return "";
    }
    EXPECT_EQ(reply->status, 200) << reply->body;
    return reply->body;
  }

  // The decision's request id, read from the impression token of its json-delivery ad.
  std::string request_id_hex() {
    const element tracking = *member(*decision_->creative("ad_2"), "tracking");
    const std::vector<element> impressions = array_member(tracking, "impressions");
    if (impressions.empty()) return "<no impression>";
    const std::string url = string_member(impressions[0], "value").value_or("");
    const std::string prefix = std::string(kVideoBaseUrl) + "/v1/tracking?t=";
    std::string storage;
    tracking::TrackingEvent event;
    if (!url.starts_with(prefix) || !state_.Open(url.substr(prefix.size()), storage, event)) return "<not a token>";
    return hex(event.request_id);
  }

  // Every tracking URL of document is the expected one, in order, and its token opens as
  // that kind for ad (creative ad * 10, placement 7), the decision's request, and 3600 s.
  void ExpectTokens(const std::string& document, uint64_t ad, const std::vector<ExpectedUrl>& expected) {
    const std::vector<DocumentUrl> urls = tracking_urls_of(document);
    std::vector<std::string> elements, expected_elements;
    for (const DocumentUrl& url : urls) elements.push_back(url.element);
    for (const ExpectedUrl& url : expected) expected_elements.push_back(url.element);
    ASSERT_EQ(elements, expected_elements) << document;
    const std::string request = request_id_hex();
    EXPECT_EQ(ad_serving_id_of(document), request + "-" + std::to_string(ad));
    std::vector<std::string> tokens;
    for (size_t i = 0; i < urls.size(); ++i) {
      const DocumentUrl& url = urls[i];
      const ExpectedUrl& want = expected[i];
      SCOPED_TRACE(url.element);
      EXPECT_TRUE(url.url.ends_with(url.token + want.suffix)) << url.url;
      std::string storage;
      tracking::TrackingEvent event;
      ASSERT_TRUE(state_.Open(url.token, storage, event));
      EXPECT_EQ(event.kind, want.kind);
      EXPECT_EQ(event.ad_id, ad);
      EXPECT_EQ(event.creative_id, ad * 10);
      EXPECT_EQ(event.placement_id, 7u);
      EXPECT_EQ(hex(event.request_id), request);
      EXPECT_EQ(event.expires_at_s - event.issued_at_s, 3600) << "--tracking-ttl's default";
      EXPECT_FALSE(event.user_id) << "the decision named no user";
      EXPECT_EQ(event.click_url, "") << "the click element's landing page is ClickThrough, not a redirect";
      if (want.kind == tracking::EventKind::kVideo) {
        EXPECT_EQ(tracking::milestone_name(event.milestone), want.detail);
      }
      if (want.kind == tracking::EventKind::kVerificationNotExecuted) {
        EXPECT_EQ(event.vendor, want.detail);
      }
      tokens.push_back(url.token);
    }
    std::sort(tokens.begin(), tokens.end());
    EXPECT_EQ(std::adjacent_find(tokens.begin(), tokens.end()), tokens.end()) << "a token issued twice";
  }

  StateDirWithKeys state_;
  TempFile catalog_{"catalog.json", video_catalog_json()};
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<VideoDecision> decision_;
};

TEST_F(VideoDocument, VastXmlDocumentMatchesItsGolden) {
  EXPECT_EQ(golden_form(xml_document()), golden(kVastXmlGolden));
}

TEST_F(VideoDocument, VastTagDocumentMatchesItsGolden) {
  EXPECT_EQ(golden_form(tag_document()), golden(kVastTagGolden));
}

TEST_F(VideoDocument, JsonDeliveryCreativeMatchesItsGolden) {
  EXPECT_EQ(flattened(*decision_->creative("ad_2")), golden(kJsonDeliveryGolden) + "\n");
}

TEST_F(VideoDocument, DocumentsAreInTheDecisionsContentLanguage) {
  DecisionClient client(*server_);
  const CurlReply reply = decide_video(client, kVideoVersion, "video", "fr-CA, en;q=0.5");
  ASSERT_EQ(reply.status, 200) << reply.body;
  decision_ = std::make_unique<VideoDecision>(reply.body);
  ASSERT_TRUE(decision_->creative("ad_3") && decision_->creative("ad_4")) << reply.body;
  const std::string xml = xml_document();
  EXPECT_NE(xml.find("<AdTitle>Vidéo xml</AdTitle>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<Description>Trente secondes</Description>"), std::string::npos) << xml;
  // The tag carries the language the decision chose to the later fetch.
  const std::string tag = tag_document();
  EXPECT_NE(tag.find("<AdTitle>Vidéo tag</AdTitle>"), std::string::npos) << tag;
}

TEST_F(VideoDocument, XmlDocumentTokensOpenAsTheKindsOfTheirElements) {
  ExpectTokens(xml_document(), 3,
               {{"Error", tracking::EventKind::kError, "", "&code=[ERRORCODE]"},
                {"Impression", tracking::EventKind::kImpression, "", ""},
                {"Tracking:verificationNotExecuted", tracking::EventKind::kVerificationNotExecuted, "xml-vendor",
                 "&reason=[REASON]"},
                {"CompanionClickTracking", tracking::EventKind::kClick, "", ""},
                {"Tracking:start", tracking::EventKind::kVideo, "start", ""},
                {"Tracking:firstQuartile", tracking::EventKind::kVideo, "first_quartile", ""},
                {"Tracking:midpoint", tracking::EventKind::kVideo, "midpoint", ""},
                {"Tracking:thirdQuartile", tracking::EventKind::kVideo, "third_quartile", ""},
                {"Tracking:complete", tracking::EventKind::kVideo, "complete", ""},
                {"Tracking:skip", tracking::EventKind::kVideo, "skip", ""},
                {"ClickTracking", tracking::EventKind::kClick, "", ""}});
}

TEST_F(VideoDocument, TagDocumentTokensOpenAsTheKindsOfTheirElements) {
  ExpectTokens(tag_document(), 4,
               {{"Error", tracking::EventKind::kError, "", "&code=[ERRORCODE]"},
                {"Impression", tracking::EventKind::kImpression, "", ""},
                {"Tracking:start", tracking::EventKind::kVideo, "start", ""},
                {"Tracking:firstQuartile", tracking::EventKind::kVideo, "first_quartile", ""},
                {"Tracking:midpoint", tracking::EventKind::kVideo, "midpoint", ""},
                {"Tracking:thirdQuartile", tracking::EventKind::kVideo, "third_quartile", ""},
                {"Tracking:complete", tracking::EventKind::kVideo, "complete", ""},
                {"ClickTracking", tracking::EventKind::kClick, "", ""}});
}

}  // namespace
}  // namespace integration
