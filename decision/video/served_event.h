#pragma once
// The tracking event every token of one served ad starts from: which ad, creative and
// placement, for which request and user, issued now and good for one --tracking-ttl
// (docs/tokens.md). Each writer then sets the kind and the kind's own fields per link.
//
// Both the JSON `tracking` object (decision/response) and the VAST document (here) seal
// from it; it lives in decision/video because decision/response builds on decision/video,
// not the other way round.
#include <cstdint>

#include "decision/catalog/model.h"
#include "tracking/tokens/token_issue.h"
#include "tracking/tokens/tracking_event.h"

namespace decision::video {

inline tracking::TrackingEvent served_event(const tracking::TokenIssue& issue, const catalog::Ad& ad,
                                            const catalog::Creative& creative,
                                            const catalog::Placement& placement, int64_t ttl_s) {
  tracking::TrackingEvent event;
  event.ad_id = ad.id;
  event.creative_id = creative.id;
  event.placement_id = placement.id;
  event.request_id = issue.request_id;
  event.user_id = issue.user_id;
  event.issued_at_s = issue.now_s;
  event.expires_at_s = issue.now_s + ttl_s;
  return event;
}

}  // namespace decision::video
