// CORS (http/cors.h): the headers every reply of a cross-origin route carries, the
// preflight's answer, and the router handing a path's headers to every reply of it.
#include <gtest/gtest.h>

#include <string>

#include "http/cors.h"
#include "http/reply_writer.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "tests/unit/http/request_for.h"

namespace http {
namespace {

constexpr CorsPolicy kPolicy{
    .allow_origin = "*",
    .allow_methods = "POST",
    .allow_headers = "Content-Type, X-Version",
    .max_age_s = 600,
    .expose_headers = "X-Version, Retry-After",
};

class NoContent : public Handler {
 public:
  void handle(const Request&, Response& response) override { response.set_status(204); }
};

using testing::request_for;

TEST(Cors, RepliesNameTheOriginAndTheHeadersAPageMayRead) {
  EXPECT_EQ(cors_reply_headers(kPolicy),
            "Access-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: X-Version, Retry-After\r\n");
}

TEST(Cors, NoExposedHeadersMeansNoExposeHeaderLine) {
  EXPECT_EQ(cors_reply_headers(CorsPolicy{"*", {}, {}, 0, {}}), "Access-Control-Allow-Origin: *\r\n");
}

TEST(Cors, APreflightIsAnswered204WithMethodsHeadersAndMaxAge) {
  CorsPreflightHandler preflight(kPolicy);
  Request request = request_for(Method::kOptions, "/v1/x");
  Response response;
  preflight.handle(request, response);
  EXPECT_EQ(response.status(), 204);
  EXPECT_TRUE(response.body().empty());
  EXPECT_EQ(response.extra_headers(),
            "Access-Control-Allow-Methods: POST\r\nAccess-Control-Allow-Headers: Content-Type, X-Version\r\n"
            "Access-Control-Max-Age: 600\r\n");
}

TEST(Cors, APreflightWithoutMaxAgeLeavesItOut) {
  CorsPreflightHandler preflight(CorsPolicy{"*", "GET", {}, 0, {}});
  Response response;
  preflight.handle(request_for(Method::kOptions, "/v1/x"), response);
  EXPECT_EQ(response.extra_headers(), "Access-Control-Allow-Methods: GET\r\n");
}

TEST(RouterReplyHeaders, EveryReplyOfThePathCarriesThemA405Too) {
  NoContent post, options, other;
  Router router;
  router.add(Method::kPost, "/v1/x", "x", post);
  router.add(Method::kOptions, "/v1/x", "x_preflight", options);
  router.add(Method::kGet, "/v1/y", "y", other);
  router.add_reply_headers("/v1/x", cors_reply_headers(kPolicy));
  Response response;
  for (Method method : {Method::kPost, Method::kOptions, Method::kGet}) {
    response.reset();
    const Router::Match match = router.match(request_for(method, "/v1/x"), response);
    EXPECT_EQ(match.reply_headers, cors_reply_headers(kPolicy)) << method_name(method);
  }
  response.reset();
  EXPECT_EQ(response.status(), 200);
  router.match(request_for(Method::kGet, "/v1/x"), response);
  EXPECT_EQ(response.status(), 405);
  EXPECT_NE(response.extra_headers().find("Allow: POST, OPTIONS"), std::string_view::npos);
}

TEST(RouterReplyHeaders, OtherPathsAndUnknownPathsCarryNone) {
  NoContent post, other;
  Router router;
  router.add(Method::kPost, "/v1/x", "x", post);
  router.add(Method::kGet, "/v1/y", "y", other);
  router.add_reply_headers("/v1/x", "A: 1\r\n");
  Response response;
  EXPECT_TRUE(router.match(request_for(Method::kGet, "/v1/y"), response).reply_headers.empty());
  response.reset();
  EXPECT_TRUE(router.match(request_for(Method::kGet, "/nowhere"), response).reply_headers.empty());
}

TEST(RouterReplyHeaders, TheReplyWriterAddsThemAfterTheHandlersHeaders) {
  Response response;
  response.set_status(204);
  response.add_header("Cache-Control", "no-store");
  std::string out;
  append_reply(out, response, "Thu, 01 Jan 2026 00:00:00 GMT", false, false, "Access-Control-Allow-Origin: *\r\n");
  EXPECT_EQ(out,
            "HTTP/1.1 204 No Content\r\nDate: Thu, 01 Jan 2026 00:00:00 GMT\r\nCache-Control: no-store\r\n"
            "Access-Control-Allow-Origin: *\r\n\r\n");
}

}  // namespace
}  // namespace http
