// Which members a decision reply gives video and native creatives (docs/decision-response.md,
// docs/video.md): video ads only from 2025-11-01, the format filter, delivery and vast,
// the tracking arrays per delivery mode, video metadata, and a json delivery's media in
// contents. The catalog is video_catalog.h's: ad 1 native, ads 2 (json), 3 (vast_xml) and
// 4 (vast_tag) on placement "mixed", ad 5 (json) alone on "video_only".
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/video_catalog.h"
#include "tests/integration/test_base_url.h"

namespace integration {
namespace {

using simdjson::dom::element;


std::set<std::string> as_set(const std::vector<std::string>& ids) { return {ids.begin(), ids.end()}; }

std::optional<double> number_member(element object, std::string_view key) {
  double value = 0;
  if (object[key].get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

std::optional<bool> bool_member(element object, std::string_view key) {
  bool value = false;
  if (object[key].get(value) != simdjson::SUCCESS) return std::nullopt;
  return value;
}

// The keys of a tracking array, each value checked to be one of our tracking URLs.
std::vector<std::string> tracking_keys(element creative, std::string_view array) {
  std::vector<std::string> keys;
  const std::optional<element> tracking = member(creative, "tracking");
  if (!tracking) return keys;
  for (element item : array_member(*tracking, array)) {
    const std::string value = string_member(item, "value").value_or("");
    EXPECT_TRUE(value.starts_with(kTestTrackingPrefix) && value.size() > std::string_view(kTestTrackingPrefix).size()) << value;
    keys.push_back(string_member(item, "key").value_or("<no key>"));
  }
  return keys;
}

struct ContentItem {
  std::string key, value, type;
  bool operator==(const ContentItem&) const = default;
};

void PrintTo(const ContentItem& item, std::ostream* out) {
  *out << "{" << item.key << ", " << item.value << ", " << item.type << "}";
}

std::vector<ContentItem> contents_of(element creative) {
  std::vector<ContentItem> items;
  for (element item : array_member(creative, "contents")) {
    items.push_back({string_member(item, "key").value_or("?"), string_member(item, "value").value_or("?"),
                     string_member(item, "type").value_or("?")});
  }
  return items;
}

// The creatives of these ads, in that order, each with its metadata and tracking objects; a
// fatal failure when one was not served.
void served(const VideoDecision& decision, std::initializer_list<std::string_view> ads, std::vector<element>& out) {
  for (std::string_view ad : ads) {
    const std::optional<element> c = decision.creative(ad);
    ASSERT_TRUE(c) << ad << " not served";
    ASSERT_TRUE(member(*c, "tracking") && member(*c, "tracking")->is_object()) << *c;
    ASSERT_TRUE(member(*c, "metadata") && member(*c, "metadata")->is_object()) << *c;
    out.push_back(*c);
  }
}

class VideoPresence : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>(
        standard_flags({"--catalog=" + catalog_.path(), std::string("--base-url=") + kVideoBaseUrl}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
    client_ = std::make_unique<DecisionClient>(*server_);
  }

  VideoDecision decide(std::string_view version, std::string_view format = "") {
    const CurlReply reply = decide_video(*client_, version, format);
    EXPECT_EQ(reply.status, 200) << reply.body;
    VideoDecision decision(reply.body);
    EXPECT_TRUE(decision.ok()) << reply.body;
    return decision;
  }

  TempFile catalog_{"catalog.json", video_catalog_json()};
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<DecisionClient> client_;
};

TEST_F(VideoPresence, Version20250101NeverServesVideoWhateverTheFormatAsked) {
  for (std::string_view format : {"", "video", "native"}) {
    const VideoDecision decision = decide(kNativeOnlyVersion, format);
    EXPECT_EQ(decision.ad_ids(), std::vector<std::string>{"ad_1"}) << "format " << format;
    EXPECT_TRUE(decision.creatives_of(1).empty()) << "the video-only placement has nothing to serve";
  }
}

TEST_F(VideoPresence, Version20250101NativeCreativeHasNoVideoMembers) {
  const VideoDecision decision = decide(kNativeOnlyVersion);
  std::vector<element> c;
  ASSERT_NO_FATAL_FAILURE(served(decision, {"ad_1"}, c));
  const element native = c[0];
  EXPECT_FALSE(has_member(native, "delivery"));
  EXPECT_FALSE(has_member(native, "vast"));
  EXPECT_FALSE(has_member(*member(native, "tracking"), "videoEvents"));
  EXPECT_FALSE(has_member(native, "verificationScriptResources")) << "verification is from 2025-11-01";
}

TEST_F(VideoPresence, Version20251101ServesVideoAdsWithDeliveryAndVastAndNativesWithout) {
  const VideoDecision decision = decide(kVideoVersion);
  EXPECT_EQ(as_set(decision.ad_ids()), (std::set<std::string>{"ad_1", "ad_2", "ad_3", "ad_4", "ad_5"}));
  const std::vector<std::pair<std::string, std::string>> deliveries = {
      {"ad_2", "json"}, {"ad_3", "vast_xml"}, {"ad_4", "vast_tag"}, {"ad_5", "json"}};
  for (const auto& [ad, delivery] : deliveries) {
    std::vector<element> c;
    ASSERT_NO_FATAL_FAILURE(served(decision, {ad}, c));
    const element video = c[0];
    EXPECT_EQ(string_member(video, "delivery"), delivery) << ad;
    EXPECT_TRUE(member(video, "vast") && member(video, "vast")->is_object()) << ad;
  }
  std::vector<element> c;
  ASSERT_NO_FATAL_FAILURE(served(decision, {"ad_1"}, c));
  EXPECT_FALSE(has_member(c[0], "delivery"));
  EXPECT_FALSE(has_member(c[0], "vast"));
}

TEST_F(VideoPresence, FormatFilterServesOnlyThatFormatAndBothWhenAbsent) {
  EXPECT_EQ(as_set(decide(kVideoVersion, "native").ad_ids()), (std::set<std::string>{"ad_1"}));
  EXPECT_TRUE(decide(kVideoVersion, "native").creatives_of(1).empty());
  EXPECT_EQ(as_set(decide(kVideoVersion, "video").ad_ids()), (std::set<std::string>{"ad_2", "ad_3", "ad_4", "ad_5"}));
  EXPECT_EQ(as_set(decide(kVideoVersion).ad_ids()), (std::set<std::string>{"ad_1", "ad_2", "ad_3", "ad_4", "ad_5"}));
}

TEST_F(VideoPresence, VastObjectIsEmptyForJsonAndHoldsTheDocumentOrTheTagOtherwise) {
  const VideoDecision decision = decide(kVideoVersion);
  std::vector<element> c;
  ASSERT_NO_FATAL_FAILURE(served(decision, {"ad_2", "ad_3", "ad_4"}, c));
  const element json = c[0], xml = c[1], tag = c[2];
  simdjson::dom::object vast;
  ASSERT_EQ(json["vast"].get(vast), simdjson::SUCCESS);
  EXPECT_EQ(vast.size(), 0u) << "json delivery: an empty object";

  ASSERT_EQ(xml["vast"].get(vast), simdjson::SUCCESS);
  EXPECT_EQ(vast.size(), 1u);
  const std::optional<std::string> document = decode_base64(string_member(xml["vast"], "xmlBase64").value_or(""));
  ASSERT_TRUE(document) << "xmlBase64 is not base64";
  EXPECT_TRUE(document->starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<VAST ")) << *document;
  EXPECT_TRUE(document->ends_with("</VAST>")) << *document;

  ASSERT_EQ(tag["vast"].get(vast), simdjson::SUCCESS);
  EXPECT_EQ(vast.size(), 1u);
  const std::string tag_url = string_member(tag["vast"], "tagUrl").value_or("");
  EXPECT_TRUE(tag_url.starts_with(std::string(kVideoBaseUrl) + "/v1/vast?d=")) << tag_url;
  for (std::string_view parameter : {"&exp=", "&kid=", "&sig="}) {
    EXPECT_NE(tag_url.find(parameter), std::string::npos) << tag_url;
  }
}

TEST_F(VideoPresence, VideoEventsArrayIsOnVideoCreativesOnly) {
  const VideoDecision decision = decide(kVideoVersion);
  for (element c : decision.creatives()) {
    const std::optional<element> metadata = member(c, "metadata"), tracking = member(c, "tracking");
    ASSERT_TRUE(metadata && tracking) << c;
    const std::string ad = string_member(*metadata, "adId").value_or("");
    const std::optional<element> events = member(*tracking, "videoEvents");
    if (ad == "ad_1") {
      EXPECT_FALSE(events) << "a native creative has no videoEvents";
    } else {
      EXPECT_TRUE(events && events->is_array()) << ad;
    }
  }
}

TEST_F(VideoPresence, JsonDeliveryTracksImpressionClickAndEveryMilestoneWithSkipOnlyWhenSkippable) {
  const VideoDecision decision = decide(kVideoVersion);
  std::vector<element> c;
  ASSERT_NO_FATAL_FAILURE(served(decision, {"ad_2", "ad_5"}, c));
  const element skippable = c[0], not_skippable = c[1];
  for (element c : {skippable, not_skippable}) {
    EXPECT_EQ(tracking_keys(c, "impressions"), std::vector<std::string>{"impression"});
    EXPECT_EQ(tracking_keys(c, "clicks"), std::vector<std::string>{"click"});
  }
  EXPECT_EQ(tracking_keys(skippable, "videoEvents"),
            (std::vector<std::string>{"start", "first_quartile", "midpoint", "third_quartile", "complete", "skip"}));
  EXPECT_EQ(tracking_keys(not_skippable, "videoEvents"),
            (std::vector<std::string>{"start", "first_quartile", "midpoint", "third_quartile", "complete"}));
  EXPECT_EQ(tracking_keys(skippable, "custom"), std::vector<std::string>{"share"});
}

TEST_F(VideoPresence, VastDeliveriesLeaveTrackingArraysEmptyButKeepCustomEvents) {
  const VideoDecision decision = decide(kVideoVersion);
  std::vector<element> c;
  ASSERT_NO_FATAL_FAILURE(served(decision, {"ad_3", "ad_4"}, c));
  const element xml = c[0];
  for (element video : c) {
    const element tracking = *member(video, "tracking");
    for (std::string_view array : {"impressions", "clicks", "videoEvents"}) {
      const std::optional<element> items = member(tracking, array);
      EXPECT_TRUE(items && items->is_array() && array_items(*items).empty()) << array << " of " << video;
    }
  }
  EXPECT_EQ(tracking_keys(xml, "custom"), std::vector<std::string>{"share"}) << "custom events stay in the JSON";
}

TEST_F(VideoPresence, VerificationResourcesAreInTheJsonForNativeAndJsonDeliveryOnly) {
  const VideoDecision decision = decide(kVideoVersion);
  const std::vector<std::pair<std::string, std::string>> in_json = {{"ad_1", "native-vendor"}, {"ad_2", "json-vendor"}};
  for (const auto& [ad, vendor] : in_json) {
    std::vector<element> c;
    ASSERT_NO_FATAL_FAILURE(served(decision, {ad}, c));
    const std::vector<element> items = array_member(c[0], "verificationScriptResources");
    ASSERT_EQ(items.size(), 1u) << ad;
    EXPECT_EQ(string_member(items[0], "vendorKey"), vendor);
    EXPECT_TRUE(string_member(items[0], "url").value_or("").starts_with("https://verify.example.test/")) << ad;
  }
  // ad 3 has a verification item, ad 4 none: both in a VAST document, neither in the JSON.
  for (std::string_view ad : {"ad_3", "ad_4"}) {
    std::vector<element> c;
    ASSERT_NO_FATAL_FAILURE(served(decision, {ad}, c));
    const std::optional<element> resources = member(c[0], "verificationScriptResources");
    EXPECT_TRUE(resources && resources->is_array() && array_items(*resources).empty()) << ad;
  }
}

TEST_F(VideoPresence, VideoMetadataGivesDurationAspectRatioAndSkipOffsetInSeconds) {
  const VideoDecision decision = decide(kVideoVersion);
  std::vector<element> c;
  ASSERT_NO_FATAL_FAILURE(served(decision, {"ad_2", "ad_3", "ad_4", "ad_1"}, c));
  const element hh_mm_ss = *member(c[0], "metadata");
  const element percent = *member(c[1], "metadata");
  const element plain = *member(c[2], "metadata");
  const element native = *member(c[3], "metadata");
  for (element m : {hh_mm_ss, percent, plain}) EXPECT_EQ(string_member(m, "format"), "video") << m;

  EXPECT_EQ(number_member(hh_mm_ss, "duration"), 30);
  EXPECT_EQ(string_member(hh_mm_ss, "aspect_ratio"), "16:9");
  EXPECT_EQ(bool_member(hh_mm_ss, "is_skippable"), true);
  EXPECT_EQ(number_member(hh_mm_ss, "skip_offset_seconds"), 5) << "skipOffset 00:00:05";

  EXPECT_EQ(number_member(percent, "duration"), 20);
  EXPECT_EQ(bool_member(percent, "is_skippable"), true);
  EXPECT_EQ(number_member(percent, "skip_offset_seconds"), 5) << "skipOffset 25% of 20 s";

  EXPECT_EQ(number_member(plain, "duration"), 15.5);
  EXPECT_FALSE(has_member(plain, "aspect_ratio")) << "not given in the catalog";
  EXPECT_EQ(bool_member(plain, "is_skippable"), false);
  EXPECT_FALSE(has_member(plain, "skip_offset_seconds")) << "not skippable";

  for (std::string_view key : {"format", "duration", "aspect_ratio", "is_skippable", "skip_offset_seconds"}) {
    EXPECT_FALSE(has_member(native, key)) << key << " on a native ad";
  }
}

TEST_F(VideoPresence, JsonDeliveryListsMediaFilesThenCompanionsInContentsAfterTheCreativesItems) {
  const VideoDecision decision = decide(kVideoVersion);
  std::vector<element> c;
  ASSERT_NO_FATAL_FAILURE(served(decision, {"ad_2", "ad_5", "ad_3"}, c));
  const element two = c[0], five = c[1], xml = c[2];
  EXPECT_EQ(contents_of(two), (std::vector<ContentItem>{
                                  {"title", "Json video", "text"},
                                  {"media_file_1", "https://cdn.example.test/v/2.mp4", "video/mp4"},
                                  {"media_file_1_delivery", "progressive", "text"},
                                  {"media_file_1_width", "1280", "number"},
                                  {"media_file_1_height", "720", "number"},
                                  {"media_file_1_bitrate", "2500", "number"},
                                  {"media_file_2", "https://cdn.example.test/v/2.m3u8", "application/x-mpegURL"},
                                  {"media_file_2_delivery", "streaming", "text"},
                                  {"media_file_2_width", "1920", "number"},
                                  {"media_file_2_height", "1080", "number"},
                                  {"companion_1_image", "https://cdn.example.test/c/2.png", "image/png"},
                                  {"companion_1_width", "300", "number"},
                                  {"companion_1_height", "250", "number"},
                                  {"companion_1_click_url", "https://two.example.test/companion", "url"},
                              }));
  // No bitrate, no companion click URL: no item for them.
  EXPECT_EQ(contents_of(five), (std::vector<ContentItem>{
                                   {"title", "Video only", "text"},
                                   {"media_file_1", "https://cdn.example.test/v/5.webm", "video/webm"},
                                   {"media_file_1_delivery", "progressive", "text"},
                                   {"media_file_1_width", "640", "number"},
                                   {"media_file_1_height", "480", "number"},
                                   {"companion_1_image", "https://cdn.example.test/c/5.gif", "image/gif"},
                                   {"companion_1_width", "300", "number"},
                                   {"companion_1_height", "250", "number"},
                               }));
  // The VAST deliveries carry their media in the document.
  EXPECT_EQ(contents_of(xml), (std::vector<ContentItem>{{"title", "Xml video & more", "text"},
                                                        {"description", "Thirty <seconds>", "text"}}));
}

}  // namespace
}  // namespace integration
