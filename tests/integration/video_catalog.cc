#include "tests/integration/video_catalog.h"

#include <algorithm>

namespace integration {

namespace {

constexpr char kCatalogHead[] = R"json({
  "revision": "video-1", "defaultLanguage": "en",
  "priorities": [{"key": "standard", "weight": 50}],
  "advertisers": [
    {"id": 1, "name": "Acme Video", "legalName": "Acme Video Ltd", "logoUrl": "https://cdn.example.test/acme.png"},
    {"id": 2, "name": "Plain"}],
  "templates": [{"id": 1, "key": "player", "style": "default"}],
  "placements": [{"id": 7, "key": "mixed"}, {"id": 8, "key": "video_only"}],
  "ads": [
    {"id": 1, "advertiserId": 2, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "format": "native", "start": "2020-01-01T00:00:00Z",
     "creatives": [{"id": 10, "clickUrl": "https://one.example.test/", "customEvents": ["add_to_cart"],
       "contents": {"en": [{"key": "title", "value": "Native one"}]},
       "verification": [{"vendorKey": "native-vendor", "scriptUrl": "https://verify.example.test/n.js",
                         "verificationParameters": "n=1"}]}]},
    {"id": 2, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "format": "video", "start": "2020-01-01T00:00:00Z",
     "creatives": [{"id": 20, "clickUrl": "https://two.example.test/landing?a=1&b=2", "customEvents": ["share"],
       "contents": {"en": [{"key": "title", "value": "Json video"}]},
       "verification": [{"vendorKey": "json-vendor", "url": "https://verify.example.test/j.js", "parameters": "j=2"}],
       "video": {"delivery": "json",
         "mediaFiles": [
           {"url": "https://cdn.example.test/v/2.mp4", "type": "video/mp4", "width": 1280, "height": 720, "bitrate": 2500},
           {"url": "https://cdn.example.test/v/2.m3u8", "type": "application/x-mpegURL", "width": 1920, "height": 1080,
            "delivery": "streaming"}],
         "duration": 30, "aspectRatio": "16:9", "skipOffset": "00:00:05",
         "companions": [{"width": 300, "height": 250, "imageUrl": "https://cdn.example.test/c/2.png",
                         "clickUrl": "https://two.example.test/companion"}]}}]},
    {"id": 3, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "format": "video", "start": "2020-01-01T00:00:00Z",
     "creatives": [{"id": 30, "clickUrl": "https://three.example.test/landing?x=1&y=2", "customEvents": ["share"],
       "contents": {"en": [{"key": "title", "value": "Xml video & more"},
                           {"key": "description", "value": "Thirty <seconds>"}],
                    "fr": [{"key": "title", "value": "Vidéo xml"}, {"key": "description", "value": "Trente secondes"}]},
       "verification": [{"vendorKey": "xml-vendor", "scriptUrl": "https://verify.example.test/x.js",
                         "verificationParameters": "{\"x\":3}", "browserOptional": true}],
       "video": {"delivery": "vast_xml",
         "mediaFiles": [{"url": "https://cdn.example.test/v/3.mp4", "type": "video/mp4", "width": 640, "height": 360,
                         "bitrate": 800}],
         "duration": 20, "aspectRatio": "16:9", "skipOffset": "25%",
         "companions": [
           {"width": 728, "height": 90, "imageUrl": "https://cdn.example.test/c/3.jpg", "type": "image/jpeg",
            "clickUrl": "https://three.example.test/companion"},
           {"width": 300, "height": 250, "imageUrl": "https://cdn.example.test/c/3.png"}]}}]},
)json";

constexpr char kTagCreative[] = R"json("creatives": [{"id": 40,
       "contents": {"en": [{"key": "title", "value": "Tag video"}], "fr": [{"key": "title", "value": "Vidéo tag"}]},
       "video": {"delivery": "vast_tag",
         "mediaFiles": [{"url": "https://cdn.example.test/v/4.mp4", "type": "video/mp4", "width": 640, "height": 360}],
         "duration": 15.5}}]},
)json";

constexpr char kNativeCreative40[] = R"json("creatives": [{"id": 40,
       "contents": {"en": [{"key": "title", "value": "No longer a video"}]}}]},
)json";

constexpr char kCatalogTail[] = R"json(    {"id": 5, "advertiserId": 2, "placementIds": [8], "templateId": 1, "priority": "standard", "weight": 1,
     "format": "video", "start": "2020-01-01T00:00:00Z",
     "creatives": [{"id": 50, "clickUrl": "https://five.example.test/",
       "contents": {"en": [{"key": "title", "value": "Video only"}]},
       "video": {"delivery": "json",
         "mediaFiles": [{"url": "https://cdn.example.test/v/5.webm", "type": "video/webm", "width": 640, "height": 480}],
         "duration": 6,
         "companions": [{"width": 300, "height": 250, "imageUrl": "https://cdn.example.test/c/5.gif"}]}}]}
  ]})json";

std::string tag_ad_json(TagAd tag_ad) {
  const std::string head = R"json(    {"id": 4, "advertiserId": 2, "templateId": 1, "priority": "standard", "weight": 1,
     "start": "2020-01-01T00:00:00Z", )json";
  switch (tag_ad) {
    case TagAd::kServed: return head + R"("placementIds": [7], "format": "video", )" + kTagCreative;
    case TagAd::kRemoved: return "";
    case TagAd::kNowNative: return head + R"("placementIds": [7], "format": "native", )" + kNativeCreative40;
    case TagAd::kFlightOver:
      return head + R"("end": "2021-01-01T00:00:00Z", "placementIds": [7], "format": "video", )" + kTagCreative;
    case TagAd::kLeftPlacement: return head + R"("placementIds": [8], "format": "video", )" + kTagCreative;
  }
  return "";
}

bool is_base64url(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

}  // namespace

std::string video_catalog_json(TagAd tag_ad) { return kCatalogHead + tag_ad_json(tag_ad) + kCatalogTail; }

std::string one_video_ad_catalog_json(std::string_view video_json, std::string_view verification_json) {
  return R"json({"revision": "one-video", "defaultLanguage": "en",
  "priorities": [{"key": "standard", "weight": 50}],
  "advertisers": [{"id": 1, "name": "One"}], "templates": [{"id": 1, "key": "player"}],
  "placements": [{"id": 7, "key": "mixed"}],
  "ads": [{"id": 1, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
           "format": "video", "start": "2020-01-01T00:00:00Z",
           "creatives": [{"id": 10, "contents": {"en": [{"key": "title", "value": "x"}]},
                          "verification": )json" +
         std::string(verification_json) + R"json(, "video": )json" + std::string(video_json) + "}]}]}";
}

CurlReply decide_video(DecisionClient& client, std::string_view version, std::string_view format,
                       std::string_view accept_language) {
  const std::string format_member = format.empty() ? "" : R"(,"format":")" + std::string(format) + "\"";
  const std::string body = R"({"placements":[{"key":"mixed","count":10)" + format_member +
                           R"(},{"key":"video_only","count":10)" + format_member + "}]}";
  DecisionHeaders headers;
  headers.version = std::string(version);
  headers.accept_language = std::string(accept_language);
  return client.decide(body, headers);
}

std::vector<simdjson::dom::element> VideoDecision::creatives_of(size_t p) const {
  const std::vector<simdjson::dom::element> placements = array_member(json_.root(), "data");
  if (p >= placements.size()) return {};
  return array_member(placements[p], "creatives");
}

std::vector<simdjson::dom::element> VideoDecision::creatives() const {
  std::vector<simdjson::dom::element> out;
  for (simdjson::dom::element placement : array_member(json_.root(), "data")) {
    for (simdjson::dom::element creative : array_member(placement, "creatives")) out.push_back(creative);
  }
  return out;
}

std::optional<simdjson::dom::element> VideoDecision::creative(std::string_view ad_id) const {
  for (simdjson::dom::element creative : creatives()) {
    const std::optional<simdjson::dom::element> metadata = member(creative, "metadata");
    if (metadata && string_member(*metadata, "adId") == ad_id) return creative;
  }
  return std::nullopt;
}

std::vector<std::string> VideoDecision::ad_ids() const {
  std::vector<std::string> out;
  for (simdjson::dom::element creative : creatives()) {
    const std::optional<simdjson::dom::element> metadata = member(creative, "metadata");
    out.push_back(metadata ? string_member(*metadata, "adId").value_or("") : "");
  }
  return out;
}

std::string path_of(std::string_view url) {
  const std::string_view base = kVideoBaseUrl;
  if (!url.starts_with(base) || url.size() == base.size() || url[base.size()] != '/') return {};
  return std::string(url.substr(base.size()));
}

std::optional<std::string> decode_base64(std::string_view text) {
  static constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  for (size_t at = 0; at < text.size(); at += 4) {
    uint32_t group = 0;
    int padding = 0;
    for (size_t i = 0; i < 4; ++i) {
      const char c = text[at + i];
      if (c == '=') {
        // Only the last group, only its last one or two characters.
        if (at + 4 != text.size() || i < 2) return std::nullopt;
        ++padding;
        group <<= 6;
        continue;
      }
      if (padding > 0) return std::nullopt;
      const size_t value = kAlphabet.find(c);
      if (value == std::string_view::npos) return std::nullopt;
      group = (group << 6) | static_cast<uint32_t>(value);
    }
    out.push_back(static_cast<char>(group >> 16));
    if (padding < 2) out.push_back(static_cast<char>(group >> 8 & 0xff));
    if (padding < 1) out.push_back(static_cast<char>(group & 0xff));
  }
  return out;
}

std::vector<DocumentUrl> tracking_urls_of(std::string_view document) {
  std::vector<DocumentUrl> out;
  const std::string prefix = std::string("<![CDATA[") + kVideoBaseUrl + "/v1/tracking?t=";
  for (size_t at = document.find(prefix); at != std::string_view::npos; at = document.find(prefix, at + 1)) {
    DocumentUrl url;
    const size_t url_start = at + 9;
    const size_t end = document.find("]]>", url_start);
    if (end == std::string_view::npos) break;
    url.url = std::string(document.substr(url_start, end - url_start));
    const size_t token_start = at + prefix.size();
    size_t token_end = token_start;
    while (token_end < end && is_base64url(document[token_end])) ++token_end;
    url.token = std::string(document.substr(token_start, token_end - token_start));
    // The element: the last start tag before the CDATA.
    const size_t tag_start = document.rfind('<', at - 1);
    const std::string_view tag = document.substr(tag_start + 1, at - tag_start - 2);
    url.element = std::string(tag.substr(0, tag.find(' ')));
    const size_t event = tag.find("event=\"");
    if (event != std::string_view::npos) {
      const size_t value = event + 7;
      url.element += ":" + std::string(tag.substr(value, tag.find('"', value) - value));
    }
    out.push_back(std::move(url));
  }
  return out;
}

std::string ad_serving_id_of(std::string_view document) {
  const size_t start = document.find("<AdServingId>");
  const size_t end = document.find("</AdServingId>");
  if (start == std::string_view::npos || end == std::string_view::npos || end < start) return {};
  return std::string(document.substr(start + 13, end - start - 13));
}

std::string without_tokens(std::string_view text) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    if (text.substr(at).starts_with("t=") && at > 0 && (text[at - 1] == '?' || text[at - 1] == '&')) {
      size_t end = at + 2;
      while (end < text.size() && is_base64url(text[end])) ++end;
      if (end > at + 2) {
        out += "t={token}";
        at = end;
        continue;
      }
    }
    out += text[at++];
  }
  return out;
}

std::string golden_form(std::string_view document) {
  // Placeholders first, on the document as written.
  std::string text = without_tokens(document);
  const std::string serving_id = ad_serving_id_of(text);
  const size_t dash = serving_id.find('-');
  if (dash != std::string::npos) {
    const size_t at = text.find("<AdServingId>") + 13;
    text.replace(at, dash, "{request_id}");
  }

  // One element per line.
  std::string out;
  int depth = 0;
  bool after_tag = false;
  for (size_t at = 0; at < text.size();) {
    const std::string_view rest = std::string_view(text).substr(at);
    if (rest.starts_with("<![CDATA[")) {
      const size_t end = rest.find("]]>");
      const size_t length = end == std::string_view::npos ? rest.size() : end + 3;
      out.append(rest.substr(0, length));
      at += length;
      after_tag = false;
      continue;
    }
    if (rest[0] == '<') {
      const size_t end = rest.find('>');
      const size_t length = end == std::string_view::npos ? rest.size() : end + 1;
      const std::string_view tag = rest.substr(0, length);
      const bool closing = tag.starts_with("</");
      if (closing) --depth;
      if (after_tag) {
        out += '\n';
        out.append(static_cast<size_t>(std::max(depth, 0)) * 2, ' ');
      }
      out.append(tag);
      if (!closing && !tag.starts_with("<?") && !tag.ends_with("/>")) ++depth;
      after_tag = true;
      at += length;
      continue;
    }
    out += rest[0];
    after_tag = false;
    ++at;
  }
  return out;
}

}  // namespace integration
