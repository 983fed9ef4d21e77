#pragma once
// The `tracking` object of a served creative (docs/decision-response.md): one URL per event the
// creative can report, each {base_url}/v1/tracking?t=<token>, the token sealing what
// happened to which ad for which request. Tokens are encoded straight into the response
// body, so a URL costs one AES-GCM seal and no copies.
//
// One per core: it drives the core's token codec in force (tracking/core_keys/core_keys.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "decision/catalog/model.h"
#include "http/json_writer.h"
#include "tracking/core_keys/core_keys.h"
#include "tracking/tokens/token_issue.h"
#include "tracking/tokens/tracking_event.h"

namespace decision::response {

// Which tracking arrays a creative carries (docs/decision-response.md, "Body"; docs/video.md).
enum class TrackingShape : uint8_t {
  kNative,         // impressions, clicks, custom
  kVideoJson,      // those and videoEvents (skip only when skippable): a custom player calls them
  kVideoDocument,  // vast_xml, vast_tag: impressions, clicks and videoEvents empty, tracking
                   // lives in the VAST document; custom events stay (VAST has no place for them)
};

class TrackingLinks {
 public:
  // base_url: the --base-url flag, without a trailing slash. ttl_s: --tracking-ttl.
  TrackingLinks(tracking::CoreKeys& keys, std::string_view base_url, int64_t ttl_s);

  // Writes {"impressions":[...],"clicks":[...],"custom":[...] or null} as the value after
  // a key, and "videoEvents":[...] for the video shapes. False when a token cannot be sealed
  // (the body is then unusable): a bound of the payload broken by the catalog, which its
  // loader prevents, or a libcrypto failure.
  bool write(http::JsonWriter& json, const tracking::TokenIssue& issue, const catalog::Ad& ad,
             const catalog::Creative& creative, const catalog::Placement& placement,
             TrackingShape shape = TrackingShape::kNative);

 private:
  bool write_link(http::JsonWriter& json, const tracking::TrackingEvent& event);

  tracking::CoreKeys& keys_;  // the codec in force, asked at each token
  std::string url_prefix_;  // JSON-escaped "{base_url}/v1/tracking?t="
  int64_t ttl_s_;
};

}  // namespace decision::response
