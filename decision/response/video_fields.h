#pragma once
// What a video creative adds to the decision response (docs/video.md, versions from
// 2025-11-01): the video members of `metadata`, and `delivery` with its `vast` object:
//   json      {}                         the media files are in `contents` (docs/video.md)
//   vast_xml  {"xmlBase64": "..."}       the VAST 4.2 document, built now, base64
//   vast_tag  {"tagUrl": "..."}          a signed URL of GET /v1/vast (docs/video.md)
//
// One per core: it drives the core's VAST document writer and its tag codec in force
// (tracking/core_keys/core_keys.h).
#include <cstdint>
#include <string>
#include <string_view>

#include "decision/catalog/model.h"
#include "decision/video/vast_document.h"
#include "http/json_writer.h"
#include "tracking/tokens/token_issue.h"
#include "tracking/core_keys/core_keys.h"

namespace decision::response {

class VideoFields {
 public:
  // base_url: --base-url without a trailing slash; tag_ttl_s: --vast-tag-ttl.
  VideoFields(video::VastDocumentWriter& documents, tracking::CoreKeys& keys, std::string_view base_url,
              int64_t tag_ttl_s);

  // format, duration, aspect_ratio (when given), is_skippable, skip_offset_seconds (when
  // skippable), as members of the open metadata object.
  static void write_metadata(http::JsonWriter& json, const catalog::Video& video);

  // "delivery" and "vast" as members of the open creative object. language: the tag of the
  // content language chosen (travels in a tag, so its document says the same). False when a
  // token, the tag or the document cannot be sealed.
  bool write_delivery(http::JsonWriter& json, const video::VastAd& ad, const tracking::TokenIssue& issue);

 private:
  bool write_tag_url(http::JsonWriter& json, const video::VastAd& ad, const tracking::TokenIssue& issue);
  bool write_document(http::JsonWriter& json, const video::VastAd& ad, const tracking::TokenIssue& issue);

  video::VastDocumentWriter& documents_;
  tracking::CoreKeys& keys_;  // the tag codec in force, asked at each tag
  std::string tag_prefix_;  // JSON-escaped "{base_url}/v1/vast?"
  int64_t tag_ttl_s_;
  std::string document_;    // the vast_xml document before base64, reused
};

}  // namespace decision::response
