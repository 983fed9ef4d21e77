#include "service/preview/preview_site.h"

#include "absl/strings/str_cat.h"
#include "http/json_writer.h"
#include "service/preview/preview_assets.h"

namespace service::preview {

std::string origin_of(std::string_view url) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::string(url);
  const size_t path_start = url.find_first_of("/?#", scheme_end + 3);
  return std::string(url.substr(0, path_start));
}

std::string content_security_policy(std::string_view public_base_url) {
  // Creatives' images and videos come from anywhere (the catalog's CDNs); scripts, styles
  // and connections from this listener, plus the public listener for decisions, VAST tags
  // and tracking calls.
  return absl::StrCat(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' http: https:; "
      "media-src http: https:; connect-src 'self' ",
      origin_of(public_base_url),
      "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
}

PreviewFile::PreviewFile(std::string_view content_type, std::string body, const std::string& csp)
    : content_type_(content_type), body_(std::move(body)), csp_(csp) {}

void PreviewFile::handle(const http::Request&, http::Response& response) {
  response.set_status(200);
  response.set_content_type(content_type_);
  // The files change with the binary, which has no version of them to validate against:
  // browsers ask again each time (a few tens of KiB, to an operator).
  response.add_header("Cache-Control", "no-cache");
  response.add_header("Content-Security-Policy", csp_);
  response.add_header("X-Content-Type-Options", "nosniff");
  response.add_header("Referrer-Policy", "no-referrer");
  response.body().assign(body_);
}

PreviewSite::PreviewSite(const std::string& admin_token, std::string_view public_base_url)
    : csp_(content_security_policy(public_base_url)) {
  auto add = [&](std::string_view path, std::string_view type, std::string body) {
    Route route;
    route.path = std::string(path);
    route.file = std::make_unique<PreviewFile>(type, std::move(body), csp_);
    route.guard = std::make_unique<AdminGuard>(admin_token, AdminGuard::Access::kRead, *route.file);
    routes_.push_back(std::move(route));
  };
  for (const PreviewAsset& asset : preview_assets()) add(asset.path, asset.content_type, std::string(asset.body));
  std::string config;
  http::JsonWriter json(config);
  json.begin_object().key("publicBaseUrl").string(public_base_url).end_object();
  add("/ui/config.json", "application/json", std::move(config));
}

void PreviewSite::add_routes(http::Router& router) {
  for (const Route& route : routes_) router.add(http::Method::kGet, route.path, route_name(route.path), *route.guard);
}

std::string route_name(std::string_view path) {
  // "/ui/app.js" -> "ui_app_js": a metrics label per file.
  std::string name;
  for (char c : path.substr(path.starts_with('/') ? 1 : 0)) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    name.push_back(word ? c : '_');
  }
  return name;
}

}  // namespace service::preview
