// Routing rules (docs/errors.md, docs/operations.md "Admin plane security"): which listener
// serves which path, 404 for unknown paths, and 405 with Allow for a known path and another
// method.
#include <gtest/gtest.h>

#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

TEST(Routing, UnknownPathIs404With10004) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  for (uint16_t port : {server.public_port(), server.admin_port()}) {
    RawConnection connection(port);
    ASSERT_TRUE(connection.send(get_request("/no/such/route")));
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << connection.last_error();
    EXPECT_EQ(reply->status, 404);
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10004));
    EXPECT_FALSE(reply->closes_connection());
  }
}

TEST(Routing, KnownPathWithOtherMethodIs405WithAllow) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  struct Case {
    uint16_t port;
    std::string request;
    std::string allow;
  };
  const Case cases[] = {
      {server.public_port(), get_request("/v1/decision"), "POST, OPTIONS"},
      {server.public_port(), "PUT /v1/tracking HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n", "GET, HEAD, POST"},
      {server.public_port(), "DELETE /v1/vast HTTP/1.1\r\nHost: t\r\n\r\n", "GET, HEAD"},
      {server.admin_port(), post_request("/healthz", "{}"), "GET, HEAD"},
      {server.admin_port(), get_request("/admin/catalog"), "POST"},
  };
  for (const Case& c : cases) {
    RawConnection connection(c.port);
    ASSERT_TRUE(connection.send(c.request));
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << connection.last_error();
    EXPECT_EQ(reply->status, 405) << c.request;
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10005)) << c.request;
    EXPECT_EQ(reply->header("Allow"), c.allow) << c.request;
    EXPECT_EQ(reply->header_count("Allow"), 1u) << c.request;
  }
}

TEST(Routing, QueryStringDoesNotChangeTheRoute) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port());
  ASSERT_TRUE(connection.send(get_request("/healthz?verbose=1&x=%2F")));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, "ok\n");
}

TEST(Routing, EachListenerServesOnlyItsOwnRoutes) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection public_connection(server.public_port());
  ASSERT_TRUE(public_connection.send(get_request("/healthz")));
  std::optional<HttpReply> reply = public_connection.read_reply();
  ASSERT_TRUE(reply) << public_connection.last_error();
  EXPECT_EQ(reply->status, 404) << "the admin plane must not be reachable on the public listener";

  RawConnection admin_connection(server.admin_port());
  ASSERT_TRUE(admin_connection.send(post_request("/v1/decision", "{}")));
  reply = admin_connection.read_reply();
  ASSERT_TRUE(reply) << admin_connection.last_error();
  EXPECT_EQ(reply->status, 404);
}

// RFC 9110 9.3.2: a reply to HEAD carries no content, whatever its status. A body after
// the head would be read by the client as the start of the next reply.
TEST(Routing, ReplyToHeadCarriesNoBody) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port());
  ASSERT_TRUE(connection.send("HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\n" + get_request("/healthz")));
  const std::optional<HttpReply> head_reply = connection.read_reply_to_head();
  ASSERT_TRUE(head_reply) << connection.last_error();
  // HEAD is served by the GET route, with the GET reply's Content-Length and no body.
  EXPECT_EQ(head_reply->status, 200) << head_reply->status_line;
  EXPECT_EQ(head_reply->header("Content-Length"), "3");
  const std::optional<HttpReply> next = connection.read_reply();
  ASSERT_TRUE(next) << "the bytes after the HEAD reply's head are not the next reply: " << connection.last_error();
  EXPECT_EQ(next->status, 200);
  EXPECT_EQ(next->body, "ok\n");
}

// RFC 9112 3.2: a server must answer 400 to an HTTP/1.1 request without Host (HTTP/1.0
// predates Host: see KeepAlive.Http10WithoutKeepAliveIsClosedAfterTheReply).
TEST(Routing, Http11RequestWithoutHostIs400) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port());
  ASSERT_TRUE(connection.send("GET /healthz HTTP/1.1\r\n\r\n"));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 400);
  EXPECT_TRUE(IsErrorEnvelope(reply->body, 10007));
}

// RFC 9112 3.2.2: absolute-form targets are accepted and routed on their path.
TEST(Routing, AbsoluteFormTargetIsRoutedOnItsPath) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port());
  ASSERT_TRUE(connection.send("GET http://t/healthz?x=1 HTTP/1.1\r\nHost: t\r\n\r\n"));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 200);
  EXPECT_EQ(reply->body, "ok\n");
}

}  // namespace
}  // namespace integration
