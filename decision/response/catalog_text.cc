#include "decision/response/catalog_text.h"

#include "decision/response/public_ids.h"
#include "http/json_writer.h"

namespace decision::response {

namespace {
std::string contents_json(const catalog::LocalizedContents& contents) {
  std::string out;
  http::JsonWriter json(out);
  json.begin_array();
  for (const catalog::ContentItem& item : contents.items) {
    json.begin_object().key("key").string(item.key).key("value").string(item.value);
    json.key("type").string(item.type).end_object();
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
        contents_json_.push_back(contents_json(contents));
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
