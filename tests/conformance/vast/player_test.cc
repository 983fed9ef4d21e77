// Every served VAST document read by a real player's parser (@dailymotion/vast-client,
// tests/vast_player/read_vast.mjs): one ad, no VAST-warning, no VAST-error, and everything
// the catalog says (media files, tracking events, clicks, companions, verifications, the
// title in the chosen language, the advertiser, the metadata extensions) read back exactly,
// odd characters included; only characters XML forbids come back as U+FFFD.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>

#include "tests/conformance/vast/generated_catalog.h"
#include "tests/conformance/vast/odd_text.h"
#include "tests/conformance/vast/player_output.h"

namespace conformance::vast {
namespace {

using integration::array_member;
using integration::member;
using integration::string_member;
using simdjson::dom::element;

// xmldom's note on a U+FFFD in the text: expected where the server replaced a character
// XML forbids (or the catalog holds U+FFFD itself), never a problem of the document.
constexpr std::string_view kReplacementNote = "Unicode replacement character detected, source encoding issues?";
constexpr double kMillisecond = 0.001;
constexpr std::string_view kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

double whole_milliseconds(double seconds) { return static_cast<double>(std::llround(seconds * 1000)) / 1000; }

bool is_null_or_absent(element object, std::string_view key) {
  const std::optional<element> value = member(object, key);
  return !value || value->is_null();
}

class PlayerReading {
 public:
  PlayerReading(const VideoCatalog& catalog, const VideoAdSpec& ad, std::string tracking_prefix)
      : catalog_(catalog), ad_(ad), tracking_prefix_(std::move(tracking_prefix)) {}

  void expect_ad(element a) const {
    EXPECT_EQ(string_member(a, "id"), "ad_" + std::to_string(ad_.id));
    EXPECT_EQ(string_member(a, "kind"), "inline");
    EXPECT_EQ(string_member(a, "system"), "decisiond");
    EXPECT_TRUE(std::regex_match(string_member(a, "adServingId").value_or(""),
                                 std::regex("[0-9a-f]{32}-" + std::to_string(ad_.id))));
    EXPECT_EQ(string_member(a, "title"), as_xml_reads(ad_.title()));
    if (const std::optional<std::string> description = ad_.description()) {
      EXPECT_EQ(string_member(a, "description"), as_xml_reads(*description));
    } else {
      EXPECT_TRUE(is_null_or_absent(a, "description"));
    }
    EXPECT_EQ(string_member(a, "advertiser"), as_xml_reads(catalog_.advertiser_of(ad_).name));
    expect_tracking_urls(string_items(a, "impressionURLTemplates"), 1, "");
    expect_tracking_urls(string_items(a, "errorURLTemplates"), 1, "&code=[ERRORCODE]");
  }

  void expect_linear(element c) const {
    expect_universal_ad_id(c);
    std::vector<std::string> events = {"complete", "firstQuartile", "midpoint", "start", "thirdQuartile"};
    if (ad_.skip_offset) events.push_back("skip");
    std::sort(events.begin(), events.end());
    std::vector<std::string> names = member_names(c, "trackingEvents");
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, events);
    for (const std::string& event : names) {
      SCOPED_TRACE(event);
      expect_tracking_urls(string_items(*member(c, "trackingEvents"), event), 1, "");
    }
    const double duration_s = whole_milliseconds(ad_.duration_s);
    EXPECT_NEAR(number_member(c, "duration").value_or(-1), duration_s, 1e-9);
    if (ad_.skip_offset) {
      // vast-client takes a percent of the Duration it read.
      const double expected = ad_.skip_offset->ends_with("%")
                                  ? duration_s * std::stoi(*ad_.skip_offset) / 100
                                  : *ad_.skip_offset_s();
      EXPECT_NEAR(number_member(c, "skipDelay").value_or(-1), expected, kMillisecond / 10) << *ad_.skip_offset;
    } else {
      EXPECT_TRUE(is_null_or_absent(c, "skipDelay"));
    }
    expect_media_files(array_member(c, "mediaFiles"));
    if (ad_.click_url) {
      EXPECT_EQ(string_member(c, "videoClickThroughURLTemplate"), as_uri(*ad_.click_url));
    } else {
      EXPECT_TRUE(is_null_or_absent(c, "videoClickThroughURLTemplate"));
    }
    expect_tracking_urls(string_items(c, "videoClickTrackingURLTemplates"), 1, "");
  }

  void expect_companions(element c) const {
    expect_universal_ad_id(c);
    const std::vector<element> companions = array_member(c, "companions");
    ASSERT_EQ(companions.size(), ad_.companions.size());
    for (size_t k = 0; k < companions.size(); ++k) {
      SCOPED_TRACE("companion " + std::to_string(k));
      const CompanionSpec& spec = ad_.companions[k];
      EXPECT_EQ(string_member(companions[k], "width"), std::to_string(spec.width));
      EXPECT_EQ(string_member(companions[k], "height"), std::to_string(spec.height));
      const std::vector<element> resources = array_member(companions[k], "staticResources");
      ASSERT_EQ(resources.size(), 1u);
      EXPECT_EQ(string_member(resources[0], "url"), as_uri(spec.image_url));
      EXPECT_EQ(string_member(resources[0], "creativeType"), spec.served_type);
      if (spec.click_url.empty()) {
        EXPECT_TRUE(is_null_or_absent(companions[k], "companionClickThroughURLTemplate"));
        expect_tracking_urls(string_items(companions[k], "companionClickTrackingURLTemplates"), 0, "");
      } else {
        EXPECT_EQ(string_member(companions[k], "companionClickThroughURLTemplate"), as_uri(spec.click_url));
        expect_tracking_urls(string_items(companions[k], "companionClickTrackingURLTemplates"), 1, "");
      }
    }
  }

  void expect_verifications(const std::vector<element>& verifications) const {
    ASSERT_EQ(verifications.size(), ad_.verifications.size());
    for (size_t k = 0; k < verifications.size(); ++k) {
      SCOPED_TRACE("verification " + std::to_string(k));
      const VerificationSpec& spec = ad_.verifications[k];
      EXPECT_EQ(string_member(verifications[k], "vendor"), as_xml_reads(spec.vendor_key));
      EXPECT_EQ(string_member(verifications[k], "resource"), as_uri(spec.url));
      EXPECT_EQ(string_member(verifications[k], "apiFramework"), "omid");
      EXPECT_EQ(bool_member(verifications[k], "browserOptional"), spec.browser_optional.value_or(false));
      if (spec.parameters && !spec.parameters->empty()) {
        EXPECT_EQ(string_member(verifications[k], "parameters"), as_xml_reads(*spec.parameters));
      } else {
        EXPECT_TRUE(is_null_or_absent(verifications[k], "parameters"));
      }
      EXPECT_EQ(member_names(verifications[k], "trackingEvents"), std::vector<std::string>{"verificationNotExecuted"});
      if (const std::optional<element> events = member(verifications[k], "trackingEvents")) {
        expect_tracking_urls(string_items(*events, "verificationNotExecuted"), 1, "&reason=[REASON]");
      }
    }
  }

  // Extensions: the response's metadata and advertiser objects.
  void expect_extensions(const std::vector<element>& extensions) const {
    ASSERT_EQ(extensions.size(), 2u);
    EXPECT_EQ(string_member(extensions[0], "type"), "decisiond-metadata");
    EXPECT_EQ(string_member(extensions[1], "type"), "decisiond-advertiser");
    const std::vector<element> metadata = array_member(extensions[0], "children");
    const std::vector<element> advertiser = array_member(extensions[1], "children");
    ASSERT_EQ(metadata.size(), 1u);
    ASSERT_EQ(advertiser.size(), 1u);
    EXPECT_EQ(child_value(metadata[0], "priority"), as_xml_reads(catalog_.priorities[ad_.priority].key));
    EXPECT_EQ(child_value(metadata[0], "style"), as_xml_reads(catalog_.style_of(ad_)));
    EXPECT_EQ(child_value(metadata[0], "aspect_ratio"), ad_.aspect_ratio);
    EXPECT_EQ(child_value(metadata[0], "is_skippable"), ad_.skip_offset ? "true" : "false");
    const AdvertiserSpec& spec = catalog_.advertiser_of(ad_);
    EXPECT_EQ(child_value(advertiser[0], "id"), "advertiser_" + std::to_string(spec.id));
    EXPECT_EQ(child_value(advertiser[0], "name"), as_xml_reads(spec.name));
    EXPECT_EQ(child_value(advertiser[0], "legalName"),
              spec.legal_name && !spec.legal_name->empty() ? std::optional(as_xml_reads(*spec.legal_name)) : std::nullopt);
    EXPECT_EQ(child_value(advertiser[0], "logoUrl"),
              spec.logo_url ? std::optional(as_uri(*spec.logo_url)) : std::nullopt);
  }

 private:
  void expect_tracking_urls(const std::vector<std::string>& urls, size_t count, std::string_view suffix) const {
    ASSERT_EQ(urls.size(), count);
    // prefix, a base64url token, suffix.
    for (const std::string& url : urls) {
      const bool framed = url.size() > tracking_prefix_.size() + suffix.size() && url.starts_with(tracking_prefix_) &&
                          url.ends_with(suffix);
      const std::string token =
          framed ? url.substr(tracking_prefix_.size(), url.size() - tracking_prefix_.size() - suffix.size()) : "";
      EXPECT_TRUE(framed && token.find_first_not_of(kBase64Url) == std::string::npos) << url;
    }
  }

  void expect_universal_ad_id(element c) const {
    const std::vector<element> ids = array_member(c, "universalAdIds");
    ASSERT_EQ(ids.size(), 1u);
    EXPECT_EQ(string_member(ids[0], "idRegistry"), "decisiond");
    EXPECT_EQ(string_member(ids[0], "value"), "creative_" + std::to_string(ad_.creative_id));
  }

  void expect_media_files(const std::vector<element>& files) const {
    ASSERT_EQ(files.size(), ad_.media_files.size());
    for (size_t j = 0; j < files.size(); ++j) {
      SCOPED_TRACE("media file " + std::to_string(j));
      const MediaFileSpec& spec = ad_.media_files[j];
      EXPECT_EQ(string_member(files[j], "fileURL"), as_uri(spec.url));
      EXPECT_EQ(string_member(files[j], "mimeType"), spec.type);
      EXPECT_EQ(string_member(files[j], "deliveryType"), spec.served_delivery());
      EXPECT_EQ(number_member(files[j], "width"), spec.width);
      EXPECT_EQ(number_member(files[j], "height"), spec.height);
      EXPECT_EQ(number_member(files[j], "bitrate"), spec.bitrate_kbps);
    }
  }

  // The text of a child extension element: its value, or its CDATA sections joined (a
  // URL split around "]]>" is two sections, which vast-client keeps as children).
  static std::optional<std::string> child_value(element parent, std::string_view name) {
    for (element child : array_member(parent, "children")) {
      if (string_member(child, "name") != name) continue;
      if (std::optional<std::string> value = string_member(child, "value")) return value;
      std::string joined;
      for (element section : array_member(child, "children")) {
        if (string_member(section, "name") != "#cdata-section") return "(not only CDATA)";
        joined += string_member(section, "value").value_or("");
      }
      return joined;
    }
    return std::nullopt;
  }

  const VideoCatalog& catalog_;
  const VideoAdSpec& ad_;
  std::string tracking_prefix_;
};

TEST_F(GeneratedCatalogTest, APlayerReadsEveryDocumentAsTheCatalogSaysIt) {
  ASSERT_EQ(documents_.size(), kAdCount * 2 / 3);
  const std::vector<PlayerOutput> outputs = read_with_player(document_files_, false);
  const std::string tracking_prefix = server_->base_url() + "/v1/tracking?t=";
  for (size_t i = 0; i < documents_.size(); ++i) {
    const VideoAdSpec& ad = documents_[i].ad();
    SCOPED_TRACE(describe(ad));
    const PlayerOutput& out = outputs[i];
    ASSERT_EQ(out.exit_code, 0) << out.stderr_text;
    ASSERT_TRUE(out.json.ok()) << out.json.error();
    const element root = out.json.root();
    EXPECT_EQ(string_member(root, "version"), "4.2");
    EXPECT_EQ(array_member(root, "warnings").size(), 0u) << simdjson::to_string(*member(root, "warnings"));
    EXPECT_EQ(array_member(root, "vastErrors").size(), 0u) << simdjson::to_string(*member(root, "vastErrors"));
    for (const std::string& note : string_items(root, "xmlWarnings")) {
      EXPECT_EQ(note, kReplacementNote);
      EXPECT_NE(documents_[i].served->document.find("\xEF\xBF\xBD"), std::string::npos);
    }
    EXPECT_EQ(array_member(root, "errorURLTemplates").size(), 0u);
    const std::vector<element> ads = array_member(root, "ads");
    ASSERT_EQ(ads.size(), 1u);
    const PlayerReading reading(catalog_, ad, tracking_prefix);
    reading.expect_ad(ads[0]);
    reading.expect_verifications(array_member(ads[0], "adVerifications"));
    reading.expect_extensions(array_member(ads[0], "extensions"));
    std::optional<element> linear;
    std::optional<element> companion;
    size_t creatives = 0;
    for (element c : array_member(ads[0], "creatives")) {
      ++creatives;
      if (string_member(c, "type") == "linear") linear = c;
      if (string_member(c, "type") == "companion") companion = c;
    }
    EXPECT_EQ(creatives, ad.companions.empty() ? 1u : 2u);
    ASSERT_TRUE(linear.has_value());
    reading.expect_linear(*linear);
    ASSERT_EQ(companion.has_value(), !ad.companions.empty());
    if (companion) reading.expect_companions(*companion);
  }
}

TEST_F(GeneratedCatalogTest, OnlyVastDeliveriesCarryADocument) {
  size_t per_delivery[3] = {0, 0, 0};
  for (const ServedAd& served : served_) {
    SCOPED_TRACE(describe(*served.ad));
    if (served.ad->delivery == "json") {
      EXPECT_EQ(served.vast_members, std::vector<std::string>{});
      ++per_delivery[2];
    } else if (served.ad->delivery == "vast_xml") {
      EXPECT_EQ(served.vast_members, std::vector<std::string>{"xmlBase64"});
      ++per_delivery[0];
    } else {
      EXPECT_EQ(served.vast_members, std::vector<std::string>{"tagUrl"});
      EXPECT_TRUE(served.tag_url.starts_with(server_->base_url() + "/v1/vast?")) << served.tag_url;
      ++per_delivery[1];
    }
  }
  EXPECT_EQ(per_delivery[0], kAdCount / 3);
  EXPECT_EQ(per_delivery[1], kAdCount / 3);
  EXPECT_EQ(per_delivery[2], kAdCount / 3);
}

}  // namespace
}  // namespace conformance::vast
