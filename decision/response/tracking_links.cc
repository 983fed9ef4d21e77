#include "decision/response/tracking_links.h"

#include "decision/catalog/limits.h"
#include "decision/video/served_event.h"

namespace decision::response {

static_assert(catalog::kMaxClickUrlBytes <= tracking::kMaxClickUrlBytes,
              "every click URL the catalog accepts must fit in a click token");
static_assert(catalog::kMaxCustomEventNameBytes <= tracking::kMaxEventNameBytes,
              "every custom event name the catalog accepts must fit in a token");

TrackingLinks::TrackingLinks(tracking::CoreKeys& keys, std::string_view base_url, int64_t ttl_s)
    : keys_(keys), ttl_s_(ttl_s) {
  http::JsonWriter::append_escaped(url_prefix_, base_url);
  url_prefix_.append("/v1/tracking?t=");
}

bool TrackingLinks::write_link(http::JsonWriter& json, const tracking::TrackingEvent& event) {
  json.begin_object().literal_key("key").string(tracking::event_name(event)).literal_key("value");
  std::string& out = json.begin_verbatim_string();
  out.append(url_prefix_);
  // base64url needs no JSON escaping.
  if (!keys_.tokens().encode(event, out).ok()) return false;
  json.end_verbatim_string().end_object();
  return true;
}

bool TrackingLinks::write(http::JsonWriter& json, const tracking::TokenIssue& issue, const catalog::Ad& ad,
                          const catalog::Creative& creative, const catalog::Placement& placement,
                          TrackingShape shape) {
  tracking::TrackingEvent event = video::served_event(issue, ad, creative, placement, ttl_s_);

  const bool in_document = shape == TrackingShape::kVideoDocument;
  json.begin_object().literal_key("impressions").begin_array();
  event.kind = tracking::EventKind::kImpression;
  if (!in_document && !write_link(json, event)) return false;
  json.end_array().literal_key("clicks").begin_array();
  // A click token exists even without a click URL: the click is still counted (and answered
  // 204 rather than 302, docs/tracking.md).
  event.kind = tracking::EventKind::kClick;
  event.click_url = creative.click_url;
  if (!in_document && !write_link(json, event)) return false;
  event.click_url = {};
  json.end_array().literal_key("custom");
  if (creative.custom_events.empty()) {
    json.null();
  } else {
    json.begin_array();
    event.kind = tracking::EventKind::kCustom;
    for (const std::string& name : creative.custom_events) {
      event.custom_name = name;
      if (!write_link(json, event)) return false;
    }
    json.end_array();
  }
  if (shape != TrackingShape::kNative) {
    json.literal_key("videoEvents").begin_array();
    if (shape == TrackingShape::kVideoJson) {
      event.kind = tracking::EventKind::kVideo;
      event.custom_name = {};
      const bool skippable = creative.video && creative.video->skippable();
      for (uint8_t code = 1; code <= static_cast<uint8_t>(tracking::VideoMilestone::kSkip); ++code) {
        event.milestone = static_cast<tracking::VideoMilestone>(code);
        if (event.milestone == tracking::VideoMilestone::kSkip && !skippable) continue;
        if (!write_link(json, event)) return false;
      }
    }
    json.end_array();
  }
  json.end_object();
  return true;
}

}  // namespace decision::response
