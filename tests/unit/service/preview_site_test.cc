// The preview page's routes (service/preview/preview_site.h): every file is served from the
// binary with its type, Cache-Control and Content-Security-Policy, behind the admin guard.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "http/router.h"
#include "service/preview/preview_assets.h"
#include "service/preview/preview_site.h"

namespace service::preview {
namespace {

http::Request get(std::string_view path, bool loopback) {
  http::Request r;
  r.method = http::Method::kGet;
  r.method_text = "GET";
  r.path = path;
  r.target = path;
  r.peer_loopback = loopback;
  return r;
}

http::Response serve(http::Router& router, const http::Request& request) {
  http::Response response;
  const http::Router::Match match = router.match(request, response);
  if (match.handler != nullptr) match.handler->handle(request, response);
  return response;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PreviewSite, EveryFileIsServedWithItsTypeCachingAndPolicy) {
  PreviewSite site("", "http://ads.example:8080");
  http::Router router;
  site.add_routes(router);
  const std::pair<std::string_view, std::string_view> files[] = {
      {"/ui", "text/html; charset=utf-8"},
      {"/ui/app.js", "text/javascript; charset=utf-8"},
      {"/ui/app.css", "text/css; charset=utf-8"},
      {"/ui/decisiond.js", "text/javascript; charset=utf-8"},
      {"/ui/config.json", "application/json"},
  };
  for (const auto& [path, type] : files) {
    const http::Response response = serve(router, get(path, true));
    EXPECT_EQ(response.status(), 200) << path;
    EXPECT_EQ(response.content_type(), type) << path;
    EXPECT_FALSE(response.body().empty()) << path;
    const std::string_view headers = response.extra_headers();
    EXPECT_NE(headers.find("Cache-Control: no-cache\r\n"), std::string_view::npos) << path;
    EXPECT_NE(headers.find("Content-Security-Policy: default-src 'none'; script-src 'self';"), std::string_view::npos)
        << path;
    EXPECT_NE(headers.find("X-Content-Type-Options: nosniff\r\n"), std::string_view::npos) << path;
  }
}

TEST(PreviewSite, ConfigNamesThePublicBaseUrl) {
  PreviewSite site("", "http://ads.example:8080/prefix");
  http::Router router;
  site.add_routes(router);
  EXPECT_EQ(serve(router, get("/ui/config.json", true)).body(), R"({"publicBaseUrl":"http://ads.example:8080/prefix"})");
}

TEST(PreviewSite, ThePolicyLetsThePageTalkToItselfAndThePublicOriginOnly) {
  EXPECT_EQ(origin_of("https://ads.example/decisiond"), "https://ads.example");
  EXPECT_EQ(origin_of("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
  const std::string csp = content_security_policy("http://ads.example:8080/p");
  EXPECT_NE(csp.find("connect-src 'self' http://ads.example:8080;"), std::string::npos) << csp;
  EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe"), std::string::npos) << csp;
}

TEST(PreviewSite, ThePageIsAnAdminRead) {
  http::Router router;
  PreviewSite loopback_only("", "http://ads.example");
  loopback_only.add_routes(router);
  EXPECT_EQ(serve(router, get("/ui", true)).status(), 200);
  EXPECT_EQ(serve(router, get("/ui", false)).status(), 401);
  http::Router token_router;
  PreviewSite with_token("secret", "http://ads.example");
  with_token.add_routes(token_router);
  // Reads are open with a token, as /metrics is: the page's own explain calls carry it.
  EXPECT_EQ(serve(token_router, get("/ui", false)).status(), 200);
}

TEST(PreviewSite, TheClientServedIsTheOneInClientsJs) {
  for (const PreviewAsset& asset : preview_assets()) {
    if (asset.path == "/ui/decisiond.js") {
      EXPECT_EQ(asset.body, file_text(std::string(SOURCE_DIR) + "/clients/js/decisiond.js"));
      return;
    }
  }
  FAIL() << "no /ui/decisiond.js";
}

TEST(PreviewSite, RoutesHaveAMetricsNameEach) {
  EXPECT_EQ(route_name("/ui"), "ui");
  EXPECT_EQ(route_name("/ui/app.js"), "ui_app_js");
  EXPECT_EQ(route_name("/ui/config.json"), "ui_config_json");
}

}  // namespace
}  // namespace service::preview
