#pragma once
// The preview page of the admin plane (docs/preview.md): an operator fills in a decision
// request and sees what it would serve, rendered by the browser client, and why
// (POST /admin/explain). Routes, all GET (HEAD too), all admin reads (AdminGuard): open to
// whoever reaches the listener when --admin-token is set, loopback peers only otherwise.
// The page's own calls to /admin/explain are writes and carry the token the operator types.
//
//   /ui                 the page          /ui/app.js, /ui/app.css   its script and style
//   /ui/decisiond.js    the browser client (clients/js/decisiond.js), as publishers get it
//   /ui/config.json     {"publicBaseUrl": --base-url}: where decisions and tracking go
//
// Files are compiled in (preview_assets.h); replies carry a Content-Security-Policy that
// lets the page run only its own scripts and talk only to this listener and the public
// base URL's origin, so a creative's text cannot become script even through a bug.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "http/router.h"
#include "service/admin_guard.h"

namespace service::preview {

// "http://ads.example:8080" of "http://ads.example:8080/prefix": scheme, host and port.
std::string origin_of(std::string_view url);
// The metrics name of a preview route: "/ui/app.js" -> "ui_app_js".
std::string route_name(std::string_view path);
// The Content-Security-Policy of every preview reply.
std::string content_security_policy(std::string_view public_base_url);

// One file of the page: fixed bytes with fixed headers.
class PreviewFile final : public http::Handler {
 public:
  // content_type must outlive the file (a literal or an embedded asset's).
  PreviewFile(std::string_view content_type, std::string body, const std::string& csp);
  void handle(const http::Request& request, http::Response& response) override;

 private:
  std::string_view content_type_;
  std::string body_;
  const std::string& csp_;
};

class PreviewSite {
 public:
  // admin_token: --admin-token (empty: loopback peers only); public_base_url: --base-url.
  PreviewSite(const std::string& admin_token, std::string_view public_base_url);
  PreviewSite(const PreviewSite&) = delete;
  PreviewSite& operator=(const PreviewSite&) = delete;

  // Adds the GET routes above, each behind the admin guard.
  void add_routes(http::Router& router);

 private:
  struct Route {
    std::string path;
    std::unique_ptr<PreviewFile> file;
    std::unique_ptr<AdminGuard> guard;
  };
  std::string csp_;
  std::vector<Route> routes_;
};

}  // namespace service::preview
