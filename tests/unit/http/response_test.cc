// What a handler fills in, and that a reused Response starts clean.
#include <gtest/gtest.h>

#include "http/response.h"

namespace http {
namespace {

TEST(Response, StartsAs200WithNothingElse) {
  Response response;
  EXPECT_EQ(response.status(), 200);
  EXPECT_TRUE(response.content_type().empty());
  EXPECT_TRUE(response.extra_headers().empty());
  EXPECT_TRUE(response.body().empty());
  EXPECT_FALSE(response.close());
}

TEST(Response, AddedHeadersAreWireLines) {
  Response response;
  response.add_header("Allow", "GET");
  response.add_header("X-Id", "");
  EXPECT_EQ(response.extra_headers(), "Allow: GET\r\nX-Id: \r\n");
}

TEST(Response, SetTextIsPlainUtf8) {
  Response response;
  response.set_text(503, "draining");
  EXPECT_EQ(response.status(), 503);
  EXPECT_EQ(response.content_type(), "text/plain; charset=utf-8");
  EXPECT_EQ(response.body(), "draining");
}

TEST(Response, SetJsonKeepsTheBody) {
  Response response;
  response.body() = "{}";
  response.set_json(201);
  EXPECT_EQ(response.status(), 201);
  EXPECT_EQ(response.content_type(), "application/json");
  EXPECT_EQ(response.body(), "{}");
}

TEST(Response, ResetForgetsEverything) {
  Response response;
  response.set_text(500, "boom");
  response.add_header("Retry-After", "1");
  response.set_close();
  response.reset();
  EXPECT_EQ(response.status(), 200);
  EXPECT_TRUE(response.content_type().empty());
  EXPECT_TRUE(response.extra_headers().empty());
  EXPECT_TRUE(response.body().empty());
  EXPECT_FALSE(response.close());
}

}  // namespace
}  // namespace http
