#include "decision/response/catalog_text.h"

#include <string>

#include "decision/response/public_ids.h"
#include "http/json_writer.h"

namespace decision::response {

namespace {
void write_item(http::JsonWriter& json, std::string_view key, std::string_view value, std::string_view type) {
  json.begin_object().key("key").string(key).key("value").string(value).key("type").string(type).end_object();
}

// A json-delivery video's media, for a custom player (docs/video.md): per media file i
// (from 1, catalog order) media_file_<i> (the URL, typed by its MIME type), _delivery,
// _width, _height and _bitrate (when given); per companion i companion_<i>_image (typed by
// the image's MIME type), _width, _height and _click_url (when given).
void write_media_items(http::JsonWriter& json, const catalog::Video& video) {
  std::string key;
  auto numbered = [&key](std::string_view prefix, size_t i, std::string_view suffix) -> std::string_view {
    key.assign(prefix);
    key.append(std::to_string(i + 1));
    key.append(suffix);
    return key;
  };
  for (size_t i = 0; i < video.media_files.size(); ++i) {
    const catalog::MediaFile& file = video.media_files[i];
    write_item(json, numbered("media_file_", i, ""), file.url, file.type);
    write_item(json, numbered("media_file_", i, "_delivery"), file.streaming ? "streaming" : "progressive", "text");
    write_item(json, numbered("media_file_", i, "_width"), std::to_string(file.width), "number");
    write_item(json, numbered("media_file_", i, "_height"), std::to_string(file.height), "number");
    if (file.bitrate_kbps != 0) {
      write_item(json, numbered("media_file_", i, "_bitrate"), std::to_string(file.bitrate_kbps), "number");
    }
  }
  for (size_t i = 0; i < video.companions.size(); ++i) {
    const catalog::Companion& companion = video.companions[i];
    write_item(json, numbered("companion_", i, "_image"), companion.image_url, companion.image_type);
    write_item(json, numbered("companion_", i, "_width"), std::to_string(companion.width), "number");
    write_item(json, numbered("companion_", i, "_height"), std::to_string(companion.height), "number");
    if (!companion.click_url.empty()) {
      write_item(json, numbered("companion_", i, "_click_url"), companion.click_url, "url");
    }
  }
}

std::string contents_json(const catalog::LocalizedContents& contents, const catalog::Creative& creative) {
  std::string out;
  http::JsonWriter json(out);
  json.begin_array();
  for (const catalog::ContentItem& item : contents.items) write_item(json, item.key, item.value, item.type);
  if (creative.video && creative.video->delivery == catalog::VideoDelivery::kJson) {
    write_media_items(json, *creative.video);
  }
  json.end_array();
  return out;
}

std::string advertiser_object_json(const catalog::Advertiser& advertiser) {
  std::string out;
  http::JsonWriter json(out);
  json.begin_object().key("id");
  write_public_id(json, kAdvertiserPrefix, advertiser.id);
  json.key("name").string(advertiser.name);
  if (!advertiser.legal_name.empty()) json.key("legalName").string(advertiser.legal_name);
  if (!advertiser.logo_url.empty()) json.key("logoUrl").string(advertiser.logo_url);
  json.end_object();
  return out;
}
}  // namespace

CatalogText::CatalogText(const catalog::CatalogSnapshot& snapshot) {
  first_creative_.reserve(snapshot.ads().size());
  for (const catalog::Ad& ad : snapshot.ads()) {
    first_creative_.push_back(static_cast<uint32_t>(first_language_.size()));
    for (const catalog::Creative& creative : ad.creatives) {
      first_language_.push_back(static_cast<uint32_t>(languages_.size()));
      for (const catalog::LocalizedContents& contents : creative.contents) {
        languages_.push_back(contents.language);
        contents_json_.push_back(contents_json(contents, creative));
        bytes_ += contents_json_.back().size();
      }
    }
  }
  first_language_.push_back(static_cast<uint32_t>(languages_.size()));
  advertiser_json_.reserve(snapshot.advertisers().size());
  for (const catalog::Advertiser& advertiser : snapshot.advertisers()) {
    advertiser_json_.push_back(advertiser_object_json(advertiser));
    bytes_ += advertiser_json_.back().size();
  }
}

CatalogText::CreativeText CatalogText::creative(uint32_t ad_index, uint32_t creative_index) const {
  const uint32_t slot = first_creative_[ad_index] + creative_index;
  const uint32_t first = first_language_[slot];
  const uint32_t count = first_language_[slot + 1] - first;
  return {std::span(languages_).subspan(first, count), std::span(contents_json_).subspan(first, count)};
}

}  // namespace decision::response
