#pragma once
// Every code of the error envelope, errors and warnings, as docs/errors.md lists them: the
// one list, so a code means one thing wherever it is answered. A unit test
// (tests/unit/http/error_codes_test.cc) holds this list and the doc's to the same codes.
//
// Numbers only: which status goes with a code, and when it is answered, is for the layer
// that answers it (the parser, the router, an endpoint).

namespace http::error_code {

// Errors: the request is not served.
inline constexpr int kInvalidJson = 10001;            // 400: the body is not valid JSON, or not an object
inline constexpr int kUnsupportedMediaType = 10002;   // 415: Content-Type is not application/json
inline constexpr int kBodyTooLarge = 10003;           // 413: the body is larger than the limit
inline constexpr int kNoSuchRoute = 10004;            // 404: no route has the path
inline constexpr int kMethodNotAllowed = 10005;       // 405: the path has no route for the method (see Allow)
inline constexpr int kHeadersTooLarge = 10006;        // 431: request headers past the header budget
inline constexpr int kMalformedRequest = 10007;       // 400: malformed HTTP; the connection is closed
inline constexpr int kRequestTimeout = 10008;         // 408: the request was not fully received in time
inline constexpr int kNotImplemented = 10009;         // 501: a route of the API whose feature is not built
inline constexpr int kInvalidPlacements = 10010;      // 422: placements missing, not an array, empty, or too many
inline constexpr int kInvalidPlacementKey = 10012;    // 422: a placement key missing or not a string
inline constexpr int kInvalidCount = 10013;           // 422: count not an integer in 1..10
inline constexpr int kInvalidAdvertiserId = 10014;    // 422: advertiserId not of the form advertiser_<id>
inline constexpr int kInvalidTemplateId = 10015;      // 422: templateId not of the form template_<id>
inline constexpr int kInvalidFormat = 10016;          // 422: format not native or video
inline constexpr int kInvalidGeoTargeting = 10017;    // 422: a targeting.geo or destination value, or targeting itself
inline constexpr int kInvalidLocation = 10018;        // 422: a targeting.location item
inline constexpr int kInvalidCustomTargeting = 10019; // 422: targeting.custom
inline constexpr int kInvalidUser = 10020;            // 422: user (id, ip, time zone, consent)
inline constexpr int kInvalidDeviceOrApp = 10021;     // 422: device or app not an object
inline constexpr int kCatalogRefused = 10030;         // 422: POST /admin/catalog refused, one item per catalog error
inline constexpr int kBadVersion = 10042;             // 400: a version header that names no released version
inline constexpr int kSunsetVersion = 10043;          // 410: the version asked for is past its sunset
inline constexpr int kInvalidTrackingToken = 10050;   // 400: a tracking token that does not open
inline constexpr int kExpiredTrackingToken = 10051;   // 410: an authentic tracking token past its expiry
inline constexpr int kBadVastTagSignature = 10052;    // 403: a VAST tag whose signature does not match
inline constexpr int kExpiredVastTag = 10053;         // 410: an authentic VAST tag past its expiry
inline constexpr int kAdminUnauthorized = 10060;      // 401: an admin write without the right bearer token
inline constexpr int kOverloaded = 10098;             // 503: overloaded or shutting down; retry later
inline constexpr int kInternalError = 10099;          // 500: the server failed (out of memory, ...)

// Warnings: the request is served, with these in `warnings`.
inline constexpr int kAcceptLanguageMissing = 20001;  // no usable Accept-Language: the default language
inline constexpr int kVersionDeprecated = 20002;      // the version is in maintenance or deprecated
inline constexpr int kUnknownPlacement = 20003;       // an unknown placement key: its decision has no creatives
inline constexpr int kLanguageUnavailable = 20004;    // no content in a requested language: the default used
inline constexpr int kDeclaredRobot = 20005;          // a declared robot's request: no creatives served

}  // namespace http::error_code
