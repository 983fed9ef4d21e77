#include "decision/video/vast_document.h"

#include <charconv>

#include "decision/video/served_event.h"
#include "decision/video/vast_time.h"
#include "decision/video/xml_text.h"

namespace decision::video {
namespace {

constexpr std::string_view kDocumentStart =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<VAST xmlns=\"http://www.iab.com/VAST\" version=\"4.2\">";
constexpr std::string_view kDocumentEnd = "</VAST>";
// Our own identifiers: the ad system, the registry of UniversalAdId, the id of our
// Impression and click-tracking elements.
constexpr std::string_view kAdSystem = "decisiond";

constexpr tracking::VideoMilestone kMilestones[] = {
    tracking::VideoMilestone::kStart,         tracking::VideoMilestone::kFirstQuartile,
    tracking::VideoMilestone::kMidpoint,      tracking::VideoMilestone::kThirdQuartile,
    tracking::VideoMilestone::kComplete,      tracking::VideoMilestone::kSkip,
};

// VAST's event names of the milestones (TrackingEvents_type), where the JSON uses snake case.
std::string_view vast_event_name(tracking::VideoMilestone milestone) {
  switch (milestone) {
    case tracking::VideoMilestone::kStart: return "start";
    case tracking::VideoMilestone::kFirstQuartile: return "firstQuartile";
    case tracking::VideoMilestone::kMidpoint: return "midpoint";
    case tracking::VideoMilestone::kThirdQuartile: return "thirdQuartile";
    case tracking::VideoMilestone::kComplete: return "complete";
    case tracking::VideoMilestone::kSkip: return "skip";
  }
  return {};
}

void append_uint(std::string& out, uint64_t value) {
  char digits[20];
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), value).ptr);
}

// The shortest decimal that reads back as the same double, as the JSON response writes it.
void append_number(std::string& out, double value) {
  char digits[32];
  out.append(digits, std::to_chars(digits, digits + sizeof(digits), value).ptr);
}

void append_public_id(std::string& out, std::string_view prefix, uint64_t id) {
  out.append(prefix);
  append_uint(out, id);
}

void append_hex(std::string& out, const tracking::RequestId& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  for (uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
}

// <name>escaped text</name>
void append_text_element(std::string& out, std::string_view name, std::string_view text) {
  out.push_back('<');
  out.append(name);
  out.push_back('>');
  append_xml_text(out, text);
  out.append("</");
  out.append(name);
  out.push_back('>');
}

void append_attribute(std::string& out, std::string_view name, std::string_view value) {
  out.push_back(' ');
  out.append(name);
  out.append("=\"");
  append_xml_attribute(out, value);
  out.push_back('"');
}

void append_uint_attribute(std::string& out, std::string_view name, uint64_t value) {
  out.push_back(' ');
  out.append(name);
  out.append("=\"");
  append_uint(out, value);
  out.push_back('"');
}

// Whether text has anything but whitespace: players warn about elements whose trimmed text
// is empty, so such an element is left out or replaced.
bool has_visible_text(std::string_view text) {
  return text.find_first_not_of(" \t\n\r") != std::string_view::npos;
}

// <name>escaped text</name> when text is not blank; nothing otherwise.
void append_optional_text_element(std::string& out, std::string_view name, std::string_view text) {
  if (has_visible_text(text)) append_text_element(out, name, text);
}

const catalog::ContentItem* find_item(const catalog::LocalizedContents& contents, std::string_view key) {
  for (const catalog::ContentItem& item : contents.items) {
    if (item.key == key) return &item;
  }
  return nullptr;
}

// AdTitle is required, and players warn about an empty one: the content's "title", else
// its first item, else (or when that is empty) the ad's public id.
void append_ad_title(std::string& out, const catalog::LocalizedContents& contents, uint64_t ad_id) {
  out.append("<AdTitle>");
  const catalog::ContentItem* title = find_item(contents, "title");
  if (title == nullptr && !contents.items.empty()) title = &contents.items.front();
  if (title != nullptr && has_visible_text(title->value)) {
    append_xml_text(out, title->value);
  } else {
    append_public_id(out, "ad_", ad_id);
  }
  out.append("</AdTitle>");
}

// Extensions: the response's metadata and advertiser objects, member for member, so a
// player-side integration reads the same names it would in the JSON.
void append_extensions(std::string& out, const catalog::CatalogSnapshot& snapshot, const catalog::Ad& ad,
                       const catalog::Creative& creative, const catalog::Placement& placement) {
  const catalog::Video& video = *creative.video;
  const catalog::Template& template_record = snapshot.templates()[ad.template_index];
  const catalog::Advertiser& advertiser = snapshot.advertisers()[ad.advertiser_index];
  out.append("<Extensions><Extension type=\"decisiond-metadata\"><Metadata><adId>");
  append_public_id(out, "ad_", ad.id);
  out.append("</adId><creativeId>");
  append_public_id(out, "creative_", creative.id);
  out.append("</creativeId><placementId>");
  append_public_id(out, "placement_", placement.id);
  out.append("</placementId><templateId>");
  append_public_id(out, "template_", template_record.id);
  out.append("</templateId>");
  append_optional_text_element(out, "priority", snapshot.priorities()[ad.tier_index].key);
  append_optional_text_element(out, "style", ad.style);
  out.append("<format>video</format><duration>");
  append_number(out, video.duration_s);
  out.append("</duration>");
  if (!video.aspect_ratio.empty()) append_text_element(out, "aspect_ratio", video.aspect_ratio);
  out.append(video.skippable() ? "<is_skippable>true</is_skippable>" : "<is_skippable>false</is_skippable>");
  if (const std::optional<double> skip_s = video.skip_offset_s()) {
    out.append("<skip_offset_seconds>");
    append_number(out, *skip_s);
    out.append("</skip_offset_seconds>");
  }
  out.append("</Metadata></Extension><Extension type=\"decisiond-advertiser\"><Advertiser><id>");
  append_public_id(out, "advertiser_", advertiser.id);
  out.append("</id>");
  append_optional_text_element(out, "name", advertiser.name);
  append_optional_text_element(out, "legalName", advertiser.legal_name);
  if (!advertiser.logo_url.empty()) {
    out.append("<logoUrl>");
    append_cdata_uri(out, advertiser.logo_url);
    out.append("</logoUrl>");
  }
  out.append("</Advertiser></Extension></Extensions>");
}

void append_media_files(std::string& out, const catalog::Video& video) {
  out.append("<MediaFiles>");
  for (const catalog::MediaFile& file : video.media_files) {
    out.append(file.streaming ? "<MediaFile delivery=\"streaming\"" : "<MediaFile delivery=\"progressive\"");
    append_attribute(out, "type", file.type);
    append_uint_attribute(out, "width", file.width);
    append_uint_attribute(out, "height", file.height);
    if (file.bitrate_kbps != 0) append_uint_attribute(out, "bitrate", file.bitrate_kbps);
    out.push_back('>');
    append_cdata_uri(out, file.url);
    out.append("</MediaFile>");
  }
  out.append("</MediaFiles>");
}

}  // namespace

VastDocumentWriter::VastDocumentWriter(tracking::CoreKeys& keys, std::string_view base_url,
                                       int64_t tracking_ttl_s)
    : keys_(keys), ttl_s_(tracking_ttl_s) {
  url_prefix_.append("<![CDATA[");
  append_uri(url_prefix_, base_url);
  url_prefix_.append("/v1/tracking?t=");
}

bool VastDocumentWriter::write_tracking_url(std::string& out, std::string_view open_tag,
                                            const tracking::TrackingEvent& event, std::string_view suffix,
                                            std::string_view close_tag) {
  out.append(open_tag);
  out.append(url_prefix_);
  // base64url and our suffixes need no CDATA splitting.
  if (!keys_.tokens().encode(event, out).ok()) return false;
  out.append(suffix);
  out.append("]]>");
  out.append(close_tag);
  return true;
}

void VastDocumentWriter::write_no_fill(std::string& out) {
  out.append(kDocumentStart);
  out.append(kDocumentEnd);
}

bool VastDocumentWriter::write_verifications(std::string& out, const catalog::Creative& creative,
                                             tracking::TrackingEvent& event) {
  if (creative.verification.empty()) return true;
  out.append("<AdVerifications>");
  event.kind = tracking::EventKind::kVerificationNotExecuted;
  for (const catalog::VerificationItem& item : creative.verification) {
    out.append("<Verification");
    append_attribute(out, "vendor", item.vendor_key);
    out.append(item.browser_optional ? "><JavaScriptResource apiFramework=\"omid\" browserOptional=\"true\">"
                                     : "><JavaScriptResource apiFramework=\"omid\" browserOptional=\"false\">");
    append_cdata_uri(out, item.url);
    out.append("</JavaScriptResource><TrackingEvents>");
    event.vendor = item.vendor_key;
    if (!write_tracking_url(out, "<Tracking event=\"verificationNotExecuted\">", event, "&reason=[REASON]",
                            "</Tracking>")) {
      return false;
    }
    out.append("</TrackingEvents>");
    // Often JSON: kept readable in CDATA, split around any "]]>" it holds.
    if (has_visible_text(item.parameters)) {
      out.append("<VerificationParameters>");
      append_cdata(out, item.parameters);
      out.append("</VerificationParameters>");
    }
    out.append("</Verification>");
  }
  event.vendor = {};
  out.append("</AdVerifications>");
  return true;
}

bool VastDocumentWriter::write_companions(std::string& out, const catalog::Video& video,
                                          tracking::TrackingEvent& event) {
  if (video.companions.empty()) return true;
  out.append("<CompanionAds>");
  event.kind = tracking::EventKind::kClick;
  for (const catalog::Companion& companion : video.companions) {
    out.append("<Companion");
    append_uint_attribute(out, "width", companion.width);
    append_uint_attribute(out, "height", companion.height);
    out.append("><StaticResource");
    append_attribute(out, "creativeType", companion.image_type);
    out.push_back('>');
    append_cdata_uri(out, companion.image_url);
    out.append("</StaticResource>");
    if (!companion.click_url.empty()) {
      out.append("<CompanionClickThrough>");
      append_cdata_uri(out, companion.click_url);
      out.append("</CompanionClickThrough>");
      if (!write_tracking_url(out, "<CompanionClickTracking id=\"decisiond\">", event, {},
                              "</CompanionClickTracking>")) {
        return false;
      }
    }
    out.append("</Companion>");
  }
  out.append("</CompanionAds>");
  return true;
}

bool VastDocumentWriter::write_linear(std::string& out, const catalog::Creative& creative, const catalog::Video& video,
                                      tracking::TrackingEvent& event) {
  out.append("<Linear");
  if (video.skippable()) {
    out.append(" skipoffset=\"");
    append_skip_offset(out, video.skip_offset);
    out.push_back('"');
  }
  out.append("><TrackingEvents>");
  event.kind = tracking::EventKind::kVideo;
  for (tracking::VideoMilestone milestone : kMilestones) {
    if (milestone == tracking::VideoMilestone::kSkip && !video.skippable()) continue;
    event.milestone = milestone;
    out.append("<Tracking event=\"");
    out.append(vast_event_name(milestone));
    if (!write_tracking_url(out, "\">", event, {}, "</Tracking>")) return false;
  }
  out.append("</TrackingEvents><Duration>");
  append_vast_duration(out, video.duration_s);
  out.append("</Duration>");
  append_media_files(out, video);
  // The click is counted by our ClickTracking; ClickThrough is where the player sends the
  // viewer, the creative's landing page (none: the video is not clickable through).
  event.kind = tracking::EventKind::kClick;
  out.append("<VideoClicks>");
  if (!write_tracking_url(out, "<ClickTracking id=\"decisiond\">", event, {}, "</ClickTracking>")) return false;
  if (!creative.click_url.empty()) {
    out.append("<ClickThrough>");
    append_cdata_uri(out, creative.click_url);
    out.append("</ClickThrough>");
  }
  out.append("</VideoClicks></Linear>");
  return true;
}

bool VastDocumentWriter::write(const VastAd& served, const tracking::TokenIssue& issue, std::string& out) {
  const catalog::CatalogSnapshot& snapshot = served.snapshot;
  const catalog::Ad& ad = snapshot.ads()[served.ad_index];
  const catalog::Creative& creative = ad.creatives[served.creative_index];
  const catalog::Video& video = *creative.video;
  const catalog::Placement& placement = snapshot.placements()[served.placement_index];

  tracking::TrackingEvent event = served_event(issue, ad, creative, placement, ttl_s_);

  out.append(kDocumentStart);
  out.append("<Ad id=\"");
  append_public_id(out, "ad_", ad.id);
  out.append("\" adType=\"video\"><InLine><AdSystem>");
  out.append(kAdSystem);
  out.append("</AdSystem>");
  event.kind = tracking::EventKind::kError;
  if (!write_tracking_url(out, "<Error>", event, "&code=[ERRORCODE]", "</Error>")) return false;
  append_extensions(out, snapshot, ad, creative, placement);
  event.kind = tracking::EventKind::kImpression;
  if (!write_tracking_url(out, "<Impression id=\"decisiond\">", event, {}, "</Impression>")) return false;
  // Unique per served ad: an ad is served at most once per decision request.
  out.append("<AdServingId>");
  append_hex(out, issue.request_id);
  out.push_back('-');
  append_uint(out, ad.id);
  out.append("</AdServingId>");
  append_ad_title(out, creative.contents[served.language_index], ad.id);

  if (!write_verifications(out, creative, event)) return false;
  append_optional_text_element(out, "Advertiser", snapshot.advertisers()[ad.advertiser_index].name);

  out.append("<Creatives><Creative id=\"");
  append_public_id(out, "creative_", creative.id);
  out.append("\" adId=\"");
  append_public_id(out, "ad_", ad.id);
  out.append("\">");
  if (!write_companions(out, video, event)) return false;
  if (!write_linear(out, creative, video, event)) return false;
  out.append("<UniversalAdId idRegistry=\"decisiond\">");
  append_public_id(out, "creative_", creative.id);
  out.append("</UniversalAdId></Creative></Creatives>");
  // Players warn about empty elements: an empty description is left out.
  if (const catalog::ContentItem* description = find_item(creative.contents[served.language_index], "description");
      description != nullptr && has_visible_text(description->value)) {
    append_text_element(out, "Description", description->value);
  }
  out.append("</InLine></Ad>");
  out.append(kDocumentEnd);
  return true;
}

}  // namespace decision::video
