// Exact-path routing: the handler of (method, path), else 404 (10004) or 405 (10005).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "tests/unit/http/request_for.h"

namespace http {
namespace {

class CountingHandler : public Handler {
 public:
  void handle(const Request&, Response&) override { ++calls; }
  int calls = 0;
};

using testing::request_for;

class RouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    router_.add(Method::kPost, "/v1/decide", "decide", decide_);
    router_.add(Method::kGet, "/v1/health", "health", health_);
    router_.add(Method::kGet, "/v1/catalog", "catalog_get", catalog_get_);
    router_.add(Method::kPut, "/v1/catalog", "catalog_put", catalog_put_);
    router_.add(Method::kDelete, "/v1/catalog", "catalog_delete", catalog_delete_);
  }

  CountingHandler decide_, health_, catalog_get_, catalog_put_, catalog_delete_;
  Router router_;
  Response response_;
};

TEST_F(RouterTest, MethodAndPathSelectTheHandlerAndItsIndex) {
  const std::pair<Request, std::pair<Handler*, uint32_t>> cases[] = {
      {request_for(Method::kPost, "/v1/decide"), {&decide_, 0}},
      {request_for(Method::kGet, "/v1/health"), {&health_, 1}},
      {request_for(Method::kGet, "/v1/catalog"), {&catalog_get_, 2}},
      {request_for(Method::kPut, "/v1/catalog"), {&catalog_put_, 3}},
      {request_for(Method::kDelete, "/v1/catalog"), {&catalog_delete_, 4}},
  };
  for (const auto& [request, expected] : cases) {
    SCOPED_TRACE(request.path);
    const Router::Match match = router_.match(request, response_);
    EXPECT_EQ(match.handler, expected.first);
    EXPECT_EQ(match.route, expected.second);
  }
}

TEST_F(RouterTest, MatchingDoesNotCallTheHandlerOrTouchTheResponse) {
  router_.match(request_for(Method::kPost, "/v1/decide"), response_);
  EXPECT_EQ(decide_.calls, 0);
  EXPECT_EQ(response_.status(), 200);
  EXPECT_TRUE(response_.body().empty());
}

TEST_F(RouterTest, UnknownPathIs404With10004AndCountsAsUnmatched) {
  const Router::Match match = router_.match(request_for(Method::kGet, "/v1/nope"), response_);
  EXPECT_EQ(match.handler, nullptr);
  EXPECT_EQ(match.route, router_.unmatched());
  EXPECT_EQ(router_.unmatched(), 5u);
  EXPECT_EQ(response_.status(), 404);
  EXPECT_EQ(response_.content_type(), "application/json");
  EXPECT_EQ(response_.body(),
            R"({"success":false,"data":null,"errors":[{"code":10004,"message":"no such route",)"
            R"("details":{}}],"warnings":null})");
  EXPECT_TRUE(response_.extra_headers().empty());
}

TEST_F(RouterTest, PathMatchIsExact) {
  for (const char* path : {"/v1/health/", "/v1/healthz", "/v1", "/V1/health", ""}) {
    SCOPED_TRACE(path);
    Response response;
    EXPECT_EQ(router_.match(request_for(Method::kGet, path), response).handler, nullptr);
    EXPECT_EQ(response.status(), 404);
  }
}

TEST_F(RouterTest, KnownPathWithOtherMethodIs405With10005) {
  const Router::Match match = router_.match(request_for(Method::kGet, "/v1/decide"), response_);
  EXPECT_EQ(match.handler, nullptr);
  EXPECT_EQ(response_.status(), 405);
  EXPECT_EQ(response_.content_type(), "application/json");
  EXPECT_EQ(response_.body(),
            R"({"success":false,"data":null,"errors":[{"code":10005,)"
            R"("message":"method not allowed","details":{}}],"warnings":null})");
}

TEST_F(RouterTest, AllowListsEveryMethodOfThePathInOrderAdded) {
  router_.match(request_for(Method::kPost, "/v1/catalog"), response_);
  EXPECT_EQ(response_.extra_headers(), "Allow: GET, HEAD, PUT, DELETE\r\n");
}

TEST_F(RouterTest, AllowOfAGetPathNamesGetAndHead) {
  router_.match(request_for(Method::kPost, "/v1/health"), response_);
  EXPECT_EQ(response_.extra_headers(), "Allow: GET, HEAD\r\n");
}

TEST_F(RouterTest, HeadIsServedByTheGetRoute) {
  const Router::Match match = router_.match(request_for(Method::kHead, "/v1/health"), response_);
  EXPECT_NE(match.handler, nullptr);
  EXPECT_EQ(match.route, 1u);
}

TEST_F(RouterTest, MethodNotAllowedCountsUnderThePathsFirstRoute) {
  EXPECT_EQ(router_.match(request_for(Method::kPatch, "/v1/catalog"), response_).route, 2u);
}

TEST_F(RouterTest, RouteNamesAreInIndexOrderEndingWithUnmatched) {
  EXPECT_EQ(router_.route_count(), 5u);
  EXPECT_EQ(router_.route_names(),
            (std::vector<std::string>{"decide", "health", "catalog_get", "catalog_put",
                                      "catalog_delete", "unmatched"}));
}

TEST(Router, EmptyRouterAnswersEverything404) {
  Router router;
  Response response;
  const Router::Match match = router.match(request_for(Method::kGet, "/"), response);
  EXPECT_EQ(match.handler, nullptr);
  EXPECT_EQ(match.route, 0u);
  EXPECT_EQ(response.status(), 404);
  EXPECT_EQ(router.route_names(), std::vector<std::string>{"unmatched"});
}

}  // namespace
}  // namespace http
