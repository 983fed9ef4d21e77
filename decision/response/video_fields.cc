#include "decision/response/video_fields.h"

#include <openssl/evp.h>

namespace decision::response {

VideoFields::VideoFields(video::VastDocumentWriter& documents, tracking::CoreKeys& keys,
                         std::string_view base_url, int64_t tag_ttl_s)
    : documents_(documents), keys_(keys), tag_ttl_s_(tag_ttl_s) {
  http::JsonWriter::append_escaped(tag_prefix_, base_url);
  tag_prefix_.append("/v1/vast?");
}

void VideoFields::write_metadata(http::JsonWriter& json, const catalog::Video& video) {
  json.literal_key("format").string("video");
  json.literal_key("duration").number(video.duration_s);
  if (!video.aspect_ratio.empty()) json.literal_key("aspect_ratio").string(video.aspect_ratio);
  json.literal_key("is_skippable").boolean(video.skippable());
  if (const std::optional<double> skip_s = video.skip_offset_s()) {
    json.literal_key("skip_offset_seconds").number(*skip_s);
  }
}

bool VideoFields::write_delivery(http::JsonWriter& json, const video::VastAd& ad,
                                 const tracking::TokenIssue& issue) {
  const catalog::Video& video = *ad.snapshot.ads()[ad.ad_index].creatives[ad.creative_index].video;
  json.literal_key("delivery").string(catalog::delivery_name(video.delivery));
  json.literal_key("vast").begin_object();
  switch (video.delivery) {
    case catalog::VideoDelivery::kJson: break;
    case catalog::VideoDelivery::kVastXml:
      if (!write_document(json, ad, issue)) return false;
      break;
    case catalog::VideoDelivery::kVastTag:
      if (!write_tag_url(json, ad, issue)) return false;
      break;
  }
  json.end_object();
  return true;
}

bool VideoFields::write_tag_url(http::JsonWriter& json, const video::VastAd& ad, const tracking::TokenIssue& issue) {
  const catalog::Ad& served = ad.snapshot.ads()[ad.ad_index];
  const catalog::Creative& creative = served.creatives[ad.creative_index];
  tracking::VastTagPayload payload;
  payload.ad_id = served.id;
  payload.creative_id = creative.id;
  payload.placement_id = ad.snapshot.placements()[ad.placement_index].id;
  payload.request_id = issue.request_id;
  payload.issued_at_s = issue.now_s;
  payload.language = creative.contents[ad.language_index].language;
  payload.user_id = issue.user_id;
  json.literal_key("tagUrl");
  std::string& out = json.begin_verbatim_string();
  out.append(tag_prefix_);
  // base64url, digits and the four parameter names need no JSON escaping.
  if (!keys_.tags().append_query(payload, issue.now_s + tag_ttl_s_, out).ok()) return false;
  json.end_verbatim_string();
  return true;
}

bool VideoFields::write_document(http::JsonWriter& json, const video::VastAd& ad, const tracking::TokenIssue& issue) {
  document_.clear();
  if (!documents_.write(ad, issue, document_)) return false;
  json.literal_key("xmlBase64");
  std::string& out = json.begin_verbatim_string();
  const size_t start = out.size();
  const size_t encoded = 4 * ((document_.size() + 2) / 3);
  out.resize(start + encoded + 1);  // EVP_EncodeBlock writes a final NUL
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data() + start),
                                      reinterpret_cast<const unsigned char*>(document_.data()),
                                      static_cast<int>(document_.size()));
  out.resize(start + static_cast<size_t>(written));
  json.end_verbatim_string();
  return true;
}

}  // namespace decision::response
