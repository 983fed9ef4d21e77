#pragma once
// The VAST 4.2 document of one served video ad (docs/video.md, "The document"): an
// InLine ad with one linear creative, written straight into the caller's buffer; no DOM,
// nothing allocated once the buffer has grown. Elements follow the order of the XSD's
// sequences (fixtures/vast/vast_4.2.xsd), because validators and strict players check it:
//
//   VAST(xmlns, version="4.2")
//    Ad(id, adType="video")
//     InLine: AdSystem, Error, Extensions (metadata, advertiser), Impression, AdServingId,
//             AdTitle, AdVerifications, Advertiser, Creatives, Description
//      Creative(id, adId): CompanionAds, Linear(skipoffset), UniversalAdId
//       Linear: TrackingEvents, Duration, MediaFiles, VideoClicks(ClickTracking, ClickThrough)
//
// Every URL is in CDATA, made an RFC 3986 URI where the catalog's is not one (xml_text.h:
// append_uri); VerificationParameters (often JSON) in CDATA split around any "]]>"; all
// other text escaped.
// Every tracking URL is ours, its token sealed for this ad now: impression, the player
// error (&code=[ERRORCODE]), the video milestones (skip only when skippable), the click
// (ClickTracking; ClickThrough is the creative's landing page), a companion's click, and
// per verification resource its verificationNotExecuted (&reason=[REASON]).
// docs/video.md shows a whole document.
//
// One per core: it drives the core's token codec in force (tracking/core_keys/core_keys.h).
#include <cstdint>
#include <string>
#include <string_view>

#include "decision/catalog/snapshot.h"
#include "tracking/core_keys/core_keys.h"
#include "tracking/tokens/token_issue.h"

namespace decision::video {

// The served ad: indexes into the snapshot, and the creative's content language the
// decision chose (index into Creative::contents).
struct VastAd {
  const catalog::CatalogSnapshot& snapshot;
  uint32_t ad_index = 0;
  uint32_t creative_index = 0;
  uint32_t placement_index = 0;
  uint32_t language_index = 0;
};

class VastDocumentWriter {
 public:
  // base_url: --base-url without a trailing slash; tracking_ttl_s: --tracking-ttl.
  VastDocumentWriter(tracking::CoreKeys& keys, std::string_view base_url, int64_t tracking_ttl_s);

  // Appends the document of a video ad (the ad's creative must carry a video). False when a
  // tracking token cannot be sealed; out then holds a partial document to discard.
  bool write(const VastAd& ad, const tracking::TokenIssue& issue, std::string& out);

  // The no-fill reply (docs/video.md, "`GET /v1/vast`"): a VAST document without an ad.
  static void write_no_fill(std::string& out);

 private:
  // <Element attributes>CDATA(our tracking URL of event, then suffix)</Element>, the element
  // given whole as its opening and closing tags.
  bool write_tracking_url(std::string& out, std::string_view open_tag, const tracking::TrackingEvent& event,
                          std::string_view suffix, std::string_view close_tag);
  // The parts of an <InLine> that carry tracking URLs; false when a URL cannot be sealed.
  // event is the ad's, its kind (and vendor, milestone) set per URL.
  bool write_verifications(std::string& out, const catalog::Creative& creative, tracking::TrackingEvent& event);
  bool write_companions(std::string& out, const catalog::Video& video, tracking::TrackingEvent& event);
  bool write_linear(std::string& out, const catalog::Creative& creative, const catalog::Video& video,
                    tracking::TrackingEvent& event);

  tracking::CoreKeys& keys_;  // the codec in force, asked at each token
  std::string url_prefix_;  // "<![CDATA[" + base_url as a URI + "/v1/tracking?t="
  int64_t ttl_s_;
};

}  // namespace decision::video
