#pragma once
// What the video tests share (docs/video.md, docs/catalog.md): a small catalog
// with one video ad per delivery mode beside a native one, the decision request that shows
// them all, the VAST document of a served creative (xmlBase64 decoded, or its tagUrl
// fetched), and the tracking URLs inside it, each with the element that holds it.
#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tracking_client.h"

namespace integration {

// Tracking and tag URLs start with it; a test calls them on its own server by path.
inline constexpr char kVideoBaseUrl[] = "https://ads.example.test";
inline constexpr char kVideoVersion[] = "2025-11-01";
inline constexpr char kNativeOnlyVersion[] = "2025-01-01";

// What becomes of ad 4 (the vast_tag ad) in a later catalog, for tags minted before.
enum class TagAd { kServed, kRemoved, kNowNative, kFlightOver, kLeftPlacement };

// Placement 7 "mixed" holds one ad of each kind, placement 8 "video_only" one video ad:
//   ad 1 native (creative 10): verification item (scriptUrl spelling), custom "add_to_cart"
//   ad 2 video json (creative 20): two media files (mp4 2500 kbps; HLS, streaming), 30 s,
//        16:9, skipOffset "00:00:05", one companion with a click URL, verification item
//        (url spelling), custom "share"
//   ad 3 video vast_xml (creative 30): one mp4 800 kbps, 20 s, 16:9, skipOffset "25%",
//        two companions (one with a click URL), verification item browserOptional, title
//        and description (also in French), custom "share", advertiser with legal name and logo
//   ad 4 video vast_tag (creative 40): one mp4 without bitrate, 15.5 s, not skippable, no
//        aspect ratio, no companion, no verification, no click URL; title also in French
//   ad 5 video json (creative 50) on placement 8: one webm, 6 s, not skippable, a companion
//        without click URL
// Advertisers 1 "Acme Video" (legal name, logo) and 2 "Plain"; template 1 "player".
std::string video_catalog_json(TagAd tag_ad = TagAd::kServed);

// A catalog of one video ad (id 1, creative 10, placement 7 "mixed") whose creative has this
// "video" object and this "verification" array (JSON texts), for catalog validation tests.
std::string one_video_ad_catalog_json(std::string_view video_json, std::string_view verification_json = "[]");
// A "video" object every rule accepts.
inline constexpr char kGoodVideoJson[] =
    R"({"delivery":"json","mediaFiles":[{"url":"https://cdn.example.test/a.mp4","type":"video/mp4",)"
    R"("width":640,"height":360}],"duration":10})";

// POST /v1/decision for placements 7 and 8 (count 10 each) under version, with an optional
// "format" on both placements, and Accept-Language.
CurlReply decide_video(DecisionClient& client, std::string_view version, std::string_view format = "",
                       std::string_view accept_language = "en");

// A reply body parsed, and its creatives by metadata.adId.
class VideoDecision {
 public:
  explicit VideoDecision(const std::string& body) : json_(body) {}
  bool ok() const { return json_.ok(); }
  // Every creative of every placement, in order.
  std::vector<simdjson::dom::element> creatives() const;
  // The creatives of placement index p.
  std::vector<simdjson::dom::element> creatives_of(size_t p) const;
  std::optional<simdjson::dom::element> creative(std::string_view ad_id) const;
  // metadata.adId of each creative, in order.
  std::vector<std::string> ad_ids() const;

 private:
  JsonBody json_;
};

// The path and query of a URL under kVideoBaseUrl ("/v1/tracking?t=..."); empty otherwise.
std::string path_of(std::string_view url);

// Strict RFC 4648 base64 (padded); nullopt on anything else.
std::optional<std::string> decode_base64(std::string_view text);

// A tracking URL of a VAST document and where it stands.
struct DocumentUrl {
  std::string element;  // "Error", "Impression", "Tracking:start", "ClickTracking",
                        // "CompanionClickTracking", "Tracking:verificationNotExecuted"
  std::string url;      // as written in CDATA, macros left in place
  std::string token;    // the t= value
};
// Every URL of the document that points at our tracking endpoint, in document order.
std::vector<DocumentUrl> tracking_urls_of(std::string_view document);

// text with every token of a tracking URL (the base64url after "?t=" or "&t=") replaced by
// {token}.
std::string without_tokens(std::string_view text);

// The document with every token (the base64url after "t=", up to "&" or "]]>") replaced by
// {token} and the AdServingId's request id by {request_id}, one element per line, indented
// two spaces per level (text and CDATA stay on the line of their element), for goldens.
std::string golden_form(std::string_view document);

// The <AdServingId> content, or empty.
std::string ad_serving_id_of(std::string_view document);

}  // namespace integration
