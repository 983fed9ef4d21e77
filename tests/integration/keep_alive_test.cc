// Connection reuse: keep-alive by default in HTTP/1.1, requests split anywhere, HTTP/1.0
// closing unless asked otherwise, half-closed clients still answered, and idle
// connections closed silently after --idle-timeout. Pipelining is in pipelining_test.cc.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/integration/curl_session.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

TEST(KeepAlive, CurlReusesOneConnectionForConsecutiveRequests) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  CurlSession curl;
  for (int i = 0; i < 5; ++i) {
    const CurlReply reply = curl.get(server.admin_url("/healthz"));
    ASSERT_TRUE(reply.ok) << reply.error;
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.new_connections, i == 0 ? 1 : 0) << "request " << i;
  }
  // Error replies keep the connection too: a client is not punished for a 422.
  for (int i = 0; i < 5; ++i) {
    const CurlReply reply = curl.post(server.public_url("/v1/decision"), "{}");
    ASSERT_TRUE(reply.ok) << reply.error;
    EXPECT_EQ(reply.status, 422);
    EXPECT_EQ(reply.new_connections, i == 0 ? 1 : 0) << "request " << i;
  }
}

TEST(KeepAlive, RequestSplitIntoOneByteWritesIsServed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  // Twice: the second proves the parser started clean after a request that came in pieces.
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(connection.send_byte_by_byte(post_request("/v1/decision", R"({"placements":[{"key":"a"}]})")));
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << "round " << round << ": " << connection.last_error();
    EXPECT_EQ(reply->status, 200) << reply->body;
    DecisionReply decision;
    ASSERT_TRUE(ReadDecision(reply->body, decision));
    ASSERT_EQ(decision.data.size(), 1u);
    EXPECT_EQ(decision.data[0].placement, "a");
  }
}

TEST(KeepAlive, Http10WithoutKeepAliveIsClosedAfterTheReply) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port());
  ASSERT_TRUE(connection.send("GET /healthz HTTP/1.0\r\n\r\n"));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 200);
  EXPECT_TRUE(reply->closes_connection());
  EXPECT_TRUE(connection.wait_for_close());
}

TEST(KeepAlive, Http10WithKeepAliveKeepsTheConnection) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.admin_port());
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(connection.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << "request " << i << ": " << connection.last_error();
    EXPECT_EQ(reply->status, 200);
    EXPECT_FALSE(reply->closes_connection());
  }
}

TEST(KeepAlive, ConnectionCloseRequestIsAnsweredThenClosed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  // The request after the one asking to close must not be answered.
  ASSERT_TRUE(connection.send(get_request("/v1/vast", "Connection: close\r\n") + get_request("/nope")));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 403);
  EXPECT_TRUE(reply->closes_connection());
  EXPECT_TRUE(connection.wait_for_close());
  EXPECT_EQ(connection.unread(), "");
}

TEST(KeepAlive, HalfClosedClientGetsEveryReplyItIsOwed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(get_request("/v1/tracking") + get_request("/v1/vast") + get_request("/nope")));
  connection.shutdown_write();
  for (int status : {400, 403, 404}) {
    const std::optional<HttpReply> reply = connection.read_reply();
    ASSERT_TRUE(reply) << connection.last_error();
    EXPECT_EQ(reply->status, status);
  }
  EXPECT_TRUE(connection.wait_for_close());
}

TEST(KeepAlive, IdleKeepAliveConnectionIsClosedSilentlyAfterIdleTimeout) {
  ServerProcess server(standard_flags({"--idle-timeout=1s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(get_request("/v1/vast")));
  ASSERT_TRUE(connection.read_reply()) << connection.last_error();
  const auto idle_since = Clock::now();
  EXPECT_TRUE(connection.wait_for_close(milliseconds(1000 + 2000)));
  const auto idle = Clock::now() - idle_since;
  EXPECT_EQ(connection.unread(), "") << "an idle close is silent: no reply";
  // Generous bounds: the rule is "about --idle-timeout", not a latency target.
  EXPECT_GE(idle, milliseconds(500));
  EXPECT_LE(idle, milliseconds(1000 + 1500));
}

TEST(KeepAlive, ConnectionThatNeverSendsIsClosedSilentlyAfterIdleTimeout) {
  ServerProcess server(standard_flags({"--idle-timeout=1s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  const auto opened = Clock::now();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.connected());
  EXPECT_TRUE(connection.wait_for_close(milliseconds(1000 + 2000)));
  EXPECT_EQ(connection.unread(), "") << "no 408 for a request that never started";
  EXPECT_GE(Clock::now() - opened, milliseconds(500));
}

}  // namespace
}  // namespace integration
