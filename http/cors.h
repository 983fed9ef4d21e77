#pragma once
// Cross-origin resource sharing (the Fetch standard's "CORS protocol") for routes that
// pages of other origins call: a decision from a publisher's page, a tracking fetch, a web
// player's VAST fetch. Nothing here knows which routes those are; the service says so when
// it registers them (Router::add_reply_headers, and a CorsPreflightHandler on OPTIONS).
//
// Only credential-less requests are meant (no cookies, no Authorization), so the origin
// is the wildcard `*` and no reply varies by Origin: every page may call, and a cache
// between the server and many pages keeps one copy.
#include <cstdint>
#include <string>
#include <string_view>

#include "http/router.h"

namespace http {

struct CorsPolicy {
  std::string_view allow_origin = "*";
  // Preflight answers: what a page may send (beyond the CORS-safelisted methods and headers).
  std::string_view allow_methods;
  std::string_view allow_headers;
  // How long a browser may reuse a preflight's answer. Chromium caps it at 7200 s,
  // Firefox at 86400 s; 0 leaves the header out (browsers then cache for 5 s).
  int32_t max_age_s = 0;
  // Reply headers a page's script may read, beyond the safelisted ones (Content-Type,
  // Content-Length, Cache-Control, ...). Empty leaves the header out.
  std::string_view expose_headers;
};

// "Access-Control-Allow-Origin: ...\r\n" and, when set, "Access-Control-Expose-Headers":
// the block every reply of a route carries (Router::add_reply_headers), errors included,
// so a page reads a 422's envelope or a 503's Retry-After instead of an opaque failure.
std::string cors_reply_headers(const CorsPolicy& policy);

// OPTIONS on a CORS route: 204 with Access-Control-Allow-Methods, -Headers and -Max-Age
// (the route's reply headers add Access-Control-Allow-Origin). A preflight is
// answered whatever it asks for: the browser compares the answer with its request and
// refuses the call itself, which tells the page more than a 4xx would.
class CorsPreflightHandler final : public Handler {
 public:
  explicit CorsPreflightHandler(const CorsPolicy& policy);
  void handle(const Request& request, Response& response) override;

 private:
  std::string max_age_;
  CorsPolicy policy_;
};

}  // namespace http
