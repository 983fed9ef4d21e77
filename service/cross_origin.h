#pragma once
// Which public routes pages of other origins may call, and what they may send and read
// (http/cors.h has the protocol). A publisher's page decides from its own origin, and web
// players fetch VAST tags and tracking URLs from theirs, so each of those routes answers
// every origin; none of them reads cookies or credentials, so `*` gives nothing away.
//
//   POST /v1/decision  a JSON body is not a CORS-safelisted request, so browsers ask
//                      first: OPTIONS /v1/decision is answered 204 (CorsPreflightHandler).
//   GET  /v1/tracking  images and beacons need no CORS; a fetch() that reads the reply does.
//   GET  /v1/vast      web players fetch the document with XMLHttpRequest or fetch().
//
// The admin listener answers no other origin: it has no CORS headers at all.
#include "http/cors.h"

namespace service {

inline constexpr http::CorsPolicy kDecisionCors{
    .allow_origin = "*",
    .allow_methods = "POST",
    // Accept-Language is safelisted only for some values (letters, digits, " *,-.;="):
    // naming it lets any value through. Content-Encoding is never safelisted: a page that
    // sends its body gzip- or zstd-coded (docs/compression.md) needs it named.
    .allow_headers = "Content-Type, Content-Encoding, X-Decision-Version, Accept-Language",
    // Chromium's ceiling; Firefox would keep it a day.
    .max_age_s = 7200,
    .expose_headers = "X-Decision-Version, X-API-Deprecated, Sunset, Retry-After",
};

inline constexpr http::CorsPolicy kTrackingCors{
    .allow_origin = "*",
    .allow_methods = {},
    .allow_headers = {},
    .max_age_s = 0,
    .expose_headers = "X-Tracking-Version, X-API-Deprecated, Sunset, Retry-After",
};

inline constexpr http::CorsPolicy kVastCors{
    .allow_origin = "*",
    .allow_methods = {},
    .allow_headers = {},
    .max_age_s = 0,
    .expose_headers = "Retry-After",
};

}  // namespace service
