#include "tests/conformance/vast/video_catalog.h"

#include <array>
#include <string_view>
#include <tuple>
#include <utility>

#include "tests/conformance/vast/odd_text.h"

namespace conformance::vast {
namespace {

struct MediaType {
  std::string_view mime;
  std::string_view extension;
  bool streaming;
};
constexpr std::array<MediaType, 5> kMediaTypes = {{
    {"video/mp4", ".mp4", false},
    {"video/webm", ".webm", false},
    {"application/x-mpegURL", ".m3u8", true},
    {"application/dash+xml", ".mpd", true},
    {"video/x-odd&type+mp4", ".mp4", false},  // '&' is a MIME token character: escaped in the attribute
}};
constexpr std::array<std::pair<uint32_t, uint32_t>, 4> kVideoSizes = {{{640, 360}, {1280, 720}, {1920, 1080}, {854, 480}}};
constexpr std::array<std::pair<uint32_t, uint32_t>, 4> kCompanionSizes = {{{300, 250}, {1, 1}, {16384, 16384}, {728, 90}}};
// Image file names and the creativeType the loader infers from them (text_formats.cc).
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kImages = {{
    {"c.png", "image/png"},
    {"c.JPG", "image/jpeg"},
    {"c.webp", "image/webp"},
    {"c.svg", "image/svg+xml"},
    {"c", "image/*"},
    {"c.bmp", "image/*"},
}};
constexpr std::array<std::string_view, 2> kCompanionTypes = {"image/png", "image/x-odd&type"};
// Fractions, the smallest millisecond, and the last second VAST's xs:time allows.
constexpr std::array<double, 8> kDurations = {15.5, 0.001, 3599.999, 30, 86399, 6.25, 1, 120.125};
constexpr std::array<std::string_view, 7> kSkipOffsets = {"", "00:00:00", "00:00:05", "0%", "100%", "25%", "00:59:59"};
constexpr std::array<std::string_view, 5> kAspectRatios = {"", "16:9", "4:3", "021:009", "9:16"};
constexpr std::array<std::string_view, 7> kLanguages = {"fr", "de", "ja", "ar", "zh-Hant-TW", "pt-BR", "el"};
constexpr std::array<std::string_view, 3> kDeliveries = {"vast_xml", "vast_tag", "json"};
constexpr size_t kMaxUrlBytes = 8192;       // decision/catalog/limits.h
constexpr size_t kMaxClickUrlBytes = 2048;  // idem

// Pads url's query (before its fragment) to exactly bytes.
std::string padded(std::string url, size_t bytes) {
  const size_t fragment = url.find('#');
  const std::string pad = "&pad=";
  if (url.size() + pad.size() < bytes) url.insert(fragment, pad + std::string(bytes - url.size() - pad.size(), 'p'));
  return url;
}

std::vector<MediaFileSpec> media_files(Draw& draw, size_t i, bool brackets) {
  std::vector<MediaFileSpec> files;
  const size_t count = 1 + (i / 3) % 3;
  for (size_t j = 0; j < count; ++j) {
    const MediaType& type = kMediaTypes[(i + j) % kMediaTypes.size()];
    MediaFileSpec file;
    file.type = std::string(type.mime);
    const std::string tail = "v" + std::to_string(j) + std::string(type.extension);
    file.url = j == 1 ? uri_url(draw, tail) : odd_url(draw, j == 2 ? "東京.example.com" : "cdn.example.com", tail, brackets);
    if (i == 5 && j == 0) file.url = padded(file.url, kMaxUrlBytes);
    switch ((i + j) % 7) {
      case 0: file.delivery = type.streaming ? "progressive" : "streaming"; break;  // overrides the type
      case 1: file.delivery = type.streaming ? "streaming" : "progressive"; break;
      default: break;
    }
    switch ((i + j) % 4) {
      case 1: file.bitrate_kbps = 1; break;
      case 2: file.bitrate_kbps = 1'000'000; break;
      case 3: file.bitrate_kbps = static_cast<uint32_t>(300 + draw.below(8000)); break;
      default: break;
    }
    switch ((i + 2 * j) % 6) {
      case 0: file.width = file.height = 1; break;
      case 1: file.width = file.height = 16384; break;
      default: std::tie(file.width, file.height) = kVideoSizes[(i + j) % kVideoSizes.size()];
    }
    files.push_back(std::move(file));
  }
  return files;
}

std::vector<CompanionSpec> companions(Draw& draw, size_t i, bool brackets) {
  std::vector<CompanionSpec> out;
  for (size_t k = 0; k < i % 3; ++k) {
    CompanionSpec companion;
    std::tie(companion.width, companion.height) = kCompanionSizes[(i + k) % kCompanionSizes.size()];
    const auto& [file, inferred] = kImages[(i / 3 + k) % kImages.size()];
    companion.image_url = k == 1 ? uri_url(draw, file) : odd_url(draw, "img.example.com", file, brackets);
    if ((i + k) % 2 == 0) companion.type = std::string(kCompanionTypes[(i / 2 + k) % kCompanionTypes.size()]);
    companion.served_type = companion.type.empty() ? std::string(inferred) : companion.type;
    if ((i + k) % 3 != 0) companion.click_url = odd_url(draw, "landing.example.com", "companion", brackets);
    out.push_back(std::move(companion));
  }
  return out;
}

std::vector<VerificationSpec> verifications(Draw& draw, size_t i, bool brackets) {
  std::vector<VerificationSpec> out;
  for (size_t k = 0; k < i % 4; ++k) {
    VerificationSpec v;
    v.vendor_key = odd_text(draw, "vendor-" + std::to_string(k) + ".example-omid");
    v.url = k == 2 ? uri_url(draw, "omid.js") : odd_url(draw, "verify.example.com", "omid.js", brackets);
    v.script_spelling = (i + k) % 2 == 1;
    switch ((i + k) % 3) {
      case 1: v.parameters = odd_text(draw, "{\"campaign\":" + std::to_string(i) + "}"); break;
      case 2: v.parameters = ""; break;  // present but empty: no VerificationParameters element
      default: break;
    }
    switch ((i / 4 + k) % 3) {
      case 1: v.browser_optional = true; break;
      case 2: v.browser_optional = false; break;
      default: break;
    }
    out.push_back(std::move(v));
  }
  return out;
}

std::vector<ContentsSpec> contents(Draw& draw, size_t i, uint64_t ad_id) {
  std::vector<ContentsSpec> out;
  std::vector<std::string> languages = {"en"};
  for (size_t l = 0; l < i % 4; ++l) languages.emplace_back(kLanguages[(i + l) % kLanguages.size()]);
  for (const std::string& language : languages) {
    const std::string base = language + " ad " + std::to_string(ad_id) + " ";
    ContentsSpec c{language, {}};
    if (i % 8 == 7) {  // no title: AdTitle is the first item
      c.items.push_back({"cta", odd_text(draw, base + "cta")});
      c.items.push_back({"headline", odd_text(draw, base + "headline")});
    } else {
      if (i % 2 == 0) c.items.push_back({"description", odd_text(draw, base + "description")});
      c.items.push_back({"title", odd_text(draw, base + "title")});
      c.items.push_back({"cta", odd_text(draw, base + "cta")});
    }
    out.push_back(std::move(c));
  }
  return out;
}

// An Accept-Language naming a language the creative has (alone, or after one it has not),
// one it has not (the default, en, is served), or en itself.
void choose_language(VideoAdSpec& ad, size_t i) {
  const size_t extra = ad.contents.size() - 1;
  switch ((i / 3) % 4) {
    case 0:
      ad.served_contents = extra == 0 ? 0 : 1 + i % extra;
      ad.accept_language = ad.contents[ad.served_contents].language;
      break;
    case 1:
      ad.served_contents = extra == 0 ? 0 : extra;
      ad.accept_language = "sv, " + ad.contents[ad.served_contents].language + ";q=0.5";
      break;
    case 2:
      ad.served_contents = 0;
      ad.accept_language = "sv";
      break;
    default:
      ad.served_contents = 0;
      ad.accept_language = "en";
  }
}

VideoAdSpec generate_ad(Draw& draw, size_t i, size_t priorities, size_t advertisers, size_t templates) {
  VideoAdSpec ad;
  ad.id = 1000 + i;
  ad.creative_id = 5000 + i;
  ad.placement_id = 100 + i;
  ad.placement_key = "slot " + std::to_string(i) + " ]]> <&> \"Zürich\"";
  ad.advertiser = i % advertisers;
  ad.template_index = i % templates;
  ad.priority = i % priorities;
  if (i % 4 == 0) ad.style = odd_text(draw, "style of ad " + std::to_string(ad.id));
  ad.delivery = std::string(kDeliveries[i % kDeliveries.size()]);
  // One ad in four carries "]]>" in its URL queries too, not only in their fragments.
  // Some URLs are URIs already (uri_url): served byte for byte.
  const bool brackets = i % 4 == 3;
  ad.media_files = media_files(draw, i, brackets);
  ad.duration_s = kDurations[i % kDurations.size()];
  if (const std::string_view ratio = kAspectRatios[i % kAspectRatios.size()]; !ratio.empty()) {
    ad.aspect_ratio = std::string(ratio);
  }
  if (const std::string_view skip = kSkipOffsets[(i / 2) % kSkipOffsets.size()]; !skip.empty()) {
    ad.skip_offset = std::string(skip);
    // An HH:MM:SS offset past the end is refused by the loader: a percent instead.
    if (const std::optional<double> s = ad.skip_offset_s(); s && *s > ad.duration_s) ad.skip_offset = "50%";
  }
  ad.companions = companions(draw, i, brackets);
  ad.verifications = verifications(draw, i, brackets);
  ad.contents = contents(draw, i, ad.id);
  if (i % 5 != 4) {
    ad.click_url = i % 5 == 3 ? uri_url(draw, "go") : odd_url(draw, "landing.example.com", "go", brackets);
    if (i == 10) ad.click_url = padded(*ad.click_url, kMaxClickUrlBytes);
  }
  choose_language(ad, i);
  return ad;
}

void append_member(std::string& out, std::string_view key, std::string_view json_value) {
  if (out.back() != '{') out.push_back(',');
  out.append(json_string(key));
  out.push_back(':');
  out.append(json_value);
}

std::string video_json(const VideoAdSpec& ad) {
  std::string out = "{";
  append_member(out, "delivery", json_string(ad.delivery));
  std::string files = "[";
  for (const MediaFileSpec& f : ad.media_files) {
    if (files.size() > 1) files.push_back(',');
    files.push_back('{');
    append_member(files, "url", json_string(f.url));
    append_member(files, "type", json_string(f.type));
    append_member(files, "width", std::to_string(f.width));
    append_member(files, "height", std::to_string(f.height));
    if (f.bitrate_kbps != 0) append_member(files, "bitrate", std::to_string(f.bitrate_kbps));
    if (!f.delivery.empty()) append_member(files, "delivery", json_string(f.delivery));
    files.push_back('}');
  }
  append_member(out, "mediaFiles", files + "]");
  char duration[32];
  std::snprintf(duration, sizeof(duration), "%.17g", ad.duration_s);
  append_member(out, "duration", duration);
  if (ad.aspect_ratio) append_member(out, "aspectRatio", json_string(*ad.aspect_ratio));
  if (ad.skip_offset) append_member(out, "skipOffset", json_string(*ad.skip_offset));
  if (!ad.companions.empty()) {
    std::string list = "[";
    for (const CompanionSpec& c : ad.companions) {
      if (list.size() > 1) list.push_back(',');
      list.push_back('{');
      append_member(list, "width", std::to_string(c.width));
      append_member(list, "height", std::to_string(c.height));
      append_member(list, "imageUrl", json_string(c.image_url));
      if (!c.type.empty()) append_member(list, "type", json_string(c.type));
      if (!c.click_url.empty()) append_member(list, "clickUrl", json_string(c.click_url));
      list.push_back('}');
    }
    append_member(out, "companions", list + "]");
  }
  return out + "}";
}

std::string creative_json(const VideoAdSpec& ad) {
  std::string out = "{";
  append_member(out, "id", std::to_string(ad.creative_id));
  std::string contents = "{";
  for (const ContentsSpec& c : ad.contents) {
    std::string items = "[";
    for (const ContentItemSpec& item : c.items) {
      if (items.size() > 1) items.push_back(',');
      items.append("{\"key\":" + json_string(item.key) + ",\"value\":" + json_string(item.value) + ",\"type\":\"text\"}");
    }
    append_member(contents, c.language, items + "]");
  }
  append_member(out, "contents", contents + "}");
  if (ad.click_url) append_member(out, "clickUrl", json_string(*ad.click_url));
  if (!ad.verifications.empty()) {
    std::string list = "[";
    for (const VerificationSpec& v : ad.verifications) {
      if (list.size() > 1) list.push_back(',');
      list.push_back('{');
      append_member(list, "vendorKey", json_string(v.vendor_key));
      append_member(list, v.script_spelling ? "scriptUrl" : "url", json_string(v.url));
      if (v.parameters) {
        append_member(list, v.script_spelling ? "verificationParameters" : "parameters", json_string(*v.parameters));
      }
      if (v.browser_optional) append_member(list, "browserOptional", *v.browser_optional ? "true" : "false");
      list.push_back('}');
    }
    append_member(out, "verification", list + "]");
  }
  append_member(out, "video", video_json(ad));
  return out + "}";
}

}  // namespace

std::string MediaFileSpec::served_delivery() const {
  if (!delivery.empty()) return delivery;
  for (const MediaType& t : kMediaTypes) {
    if (t.mime == type) return t.streaming ? "streaming" : "progressive";
  }
  return "progressive";
}

std::string VideoAdSpec::title() const {
  for (const ContentItemSpec& item : contents[served_contents].items) {
    if (item.key == "title") return item.value;
  }
  return contents[served_contents].items.front().value;
}

std::optional<std::string> VideoAdSpec::description() const {
  for (const ContentItemSpec& item : contents[served_contents].items) {
    if (item.key == "description") return item.value;
  }
  return std::nullopt;
}

std::optional<double> VideoAdSpec::skip_offset_s() const {
  if (!skip_offset) return std::nullopt;
  const std::string& s = *skip_offset;
  if (s.back() == '%') return duration_s * std::stoi(s.substr(0, s.size() - 1)) / 100.0;
  return std::stoi(s.substr(0, 2)) * 3600.0 + std::stoi(s.substr(3, 2)) * 60.0 + std::stoi(s.substr(6, 2));
}

std::string VideoCatalog::style_of(const VideoAdSpec& ad) const {
  if (ad.style) return *ad.style;
  return templates[ad.template_index].style.value_or("default");
}

VideoCatalog generate_video_catalog(uint32_t seed, size_t ad_count) {
  Draw draw(seed);
  VideoCatalog catalog;
  constexpr std::array<uint32_t, 3> kWeights = {100, 50, 1};
  for (size_t p = 0; p < kWeights.size(); ++p) {
    catalog.priorities.push_back({odd_text(draw, "tier " + std::to_string(p)), kWeights[p]});
  }
  for (uint64_t a = 1; a <= 5; ++a) {
    AdvertiserSpec advertiser;
    advertiser.id = a;
    advertiser.name = odd_text(draw, "Advertiser " + std::to_string(a));
    if (a % 3 == 1) advertiser.legal_name = odd_text(draw, "Legal " + std::to_string(a) + " GmbH");
    if (a % 3 == 2) advertiser.legal_name = "";  // present but empty: no legalName element
    if (a % 2 == 1) advertiser.logo_url = odd_url(draw, "cdn.example.com", "logo.png", a == 3);
    if (a == 4) advertiser.logo_url = uri_url(draw, "logo.png");
    catalog.advertisers.push_back(std::move(advertiser));
  }
  for (uint64_t t = 1; t <= 3; ++t) {
    TemplateSpec record;
    record.id = t;
    record.key = odd_text(draw, "template " + std::to_string(t));
    if (t != 3) record.style = odd_text(draw, "template style " + std::to_string(t));
    catalog.templates.push_back(std::move(record));
  }
  for (size_t i = 0; i < ad_count; ++i) {
    catalog.ads.push_back(
        generate_ad(draw, i, catalog.priorities.size(), catalog.advertisers.size(), catalog.templates.size()));
  }
  return catalog;
}

std::string VideoCatalog::json() const {
  std::string out = "{\"revision\":\"vast-conformance\",\"defaultLanguage\":\"en\",\"priorities\":[";
  for (size_t p = 0; p < priorities.size(); ++p) {
    if (p > 0) out.push_back(',');
    out.append("{\"key\":" + json_string(priorities[p].key) + ",\"weight\":" + std::to_string(priorities[p].weight) + "}");
  }
  out.append("],\"advertisers\":[");
  for (size_t a = 0; a < advertisers.size(); ++a) {
    const AdvertiserSpec& advertiser = advertisers[a];
    std::string record = "{";
    append_member(record, "id", std::to_string(advertiser.id));
    append_member(record, "name", json_string(advertiser.name));
    if (advertiser.legal_name) append_member(record, "legalName", json_string(*advertiser.legal_name));
    if (advertiser.logo_url) append_member(record, "logoUrl", json_string(*advertiser.logo_url));
    out.append(a > 0 ? "," : "").append(record).append("}");
  }
  out.append("],\"templates\":[");
  for (size_t t = 0; t < templates.size(); ++t) {
    std::string record = "{";
    append_member(record, "id", std::to_string(templates[t].id));
    append_member(record, "key", json_string(templates[t].key));
    if (templates[t].style) append_member(record, "style", json_string(*templates[t].style));
    out.append(t > 0 ? "," : "").append(record).append("}");
  }
  out.append("],\"placements\":[");
  for (size_t i = 0; i < ads.size(); ++i) {
    out.append(i > 0 ? "," : "");
    out.append("{\"id\":" + std::to_string(ads[i].placement_id) + ",\"key\":" + json_string(ads[i].placement_key) + "}");
  }
  out.append("],\"ads\":[");
  for (size_t i = 0; i < ads.size(); ++i) {
    const VideoAdSpec& ad = ads[i];
    std::string record = "{";
    append_member(record, "id", std::to_string(ad.id));
    append_member(record, "advertiserId", std::to_string(advertisers[ad.advertiser].id));
    append_member(record, "placementIds", "[" + std::to_string(ad.placement_id) + "]");
    append_member(record, "templateId", std::to_string(templates[ad.template_index].id));
    append_member(record, "priority", json_string(priorities[ad.priority].key));
    append_member(record, "weight", "1");
    append_member(record, "format", "\"video\"");
    if (ad.style) append_member(record, "style", json_string(*ad.style));
    append_member(record, "start", "\"2020-01-01T00:00:00Z\"");
    append_member(record, "creatives", "[" + creative_json(ad) + "]");
    out.append(i > 0 ? "," : "").append(record).append("}");
  }
  return out + "]}";
}

std::string decision_request_json(const VideoAdSpec& ad) {
  return "{\"placements\":[{\"key\":" + json_string(ad.placement_key) + ",\"count\":1}]}";
}

}  // namespace conformance::vast
