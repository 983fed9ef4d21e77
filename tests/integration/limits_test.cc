// Every bound of the HTTP layer (http/limits.h, docs/operations.md "Limits"): malformed input,
// header size and count, body size by Content-Length and chunked, 100-continue, and the
// request timeout. An error that ends the connection says so and then closes.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// A server with a small body limit, so bodies on either side of it are cheap to send.
constexpr size_t kBodyLimit = 1024;
std::vector<std::string> small_body_limit() { return standard_flags({"--max-body-bytes=1024"}); }

// Reads one reply and expects it to be the given error, followed by the server closing.
void expect_error_then_close(RawConnection& connection, int status, int code) {
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, status);
  EXPECT_TRUE(IsErrorEnvelope(reply->body, code));
  EXPECT_TRUE(reply->closes_connection());
  EXPECT_TRUE(HasDateAndContentLength(*reply));
  EXPECT_TRUE(connection.wait_for_close());
  EXPECT_EQ(connection.unread(), "");
}

std::string header_lines(int count) {
  std::string lines;
  for (int i = 0; i < count; ++i) lines += "X-Filler-" + std::to_string(i) + ": v\r\n";
  return lines;
}

TEST(Limits, GarbageBytesAre400With10007ThenClosed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(std::string("\x16\x03\x01\x02\x00garbage\r\n\r\n", 16)));
  expect_error_then_close(connection, 400, 10007);
}

// Two ways to frame one body (request smuggling shapes) are refused, not guessed at.
TEST(Limits, AmbiguousBodyFramingIs400ThenClosed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::string requests[] = {
      "POST /v1/decision HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
      "0\r\n\r\n",
      "POST /v1/decision HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\nabcde",
  };
  for (const std::string& request : requests) {
    SCOPED_TRACE(request);
    RawConnection connection(server.public_port());
    ASSERT_TRUE(connection.send(request));
    expect_error_then_close(connection, 400, 10007);
  }
}

TEST(Limits, HeadersOver16KiBAre431With10006ThenClosed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(get_request("/v1/vast", "X-Big: " + std::string(17 * 1024, 'a') + "\r\n")));
  expect_error_then_close(connection, 431, 10006);
}

TEST(Limits, HeadersJustUnder16KiBAreAccepted) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(get_request("/v1/vast", "X-Big: " + std::string(15 * 1024, 'a') + "\r\n")));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 403);
}

TEST(Limits, MoreThan100HeaderLinesAre431) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(get_request("/v1/vast", header_lines(100))));  // plus Host: 101
  expect_error_then_close(connection, 431, 10006);
}

TEST(Limits, Exactly100HeaderLinesAreAccepted) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(get_request("/v1/vast", header_lines(99))));  // plus Host: 100
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 403);
}

TEST(Limits, ContentLengthOverLimitIs413BeforeTheBodyIsSent) {
  ServerProcess server(small_body_limit());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  // Only the head: the answer must not wait for a body the server will not take.
  ASSERT_TRUE(connection.send("POST /v1/decision HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                              "Content-Length: " + std::to_string(kBodyLimit + 1) + "\r\n\r\n"));
  expect_error_then_close(connection, 413, 10003);
}

TEST(Limits, BodyOfExactlyTheLimitIsAccepted) {
  ServerProcess server(small_body_limit());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(post_request("/v1/decision", std::string(kBodyLimit, ' '))));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  // Taken whole and handed to the decision endpoint, which finds no JSON in it.
  EXPECT_EQ(reply->status, 400);
  EXPECT_TRUE(IsErrorEnvelope(reply->body, 10001));
  EXPECT_FALSE(reply->closes_connection());
}

TEST(Limits, ChunkedBodyOverLimitIs413) {
  ServerProcess server(small_body_limit());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  const std::string half(kBodyLimit / 2, 'x');
  ASSERT_TRUE(connection.send("POST /v1/decision HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" +
                              chunk(half) + chunk(half) + chunk("y") + std::string(kLastChunk)));
  expect_error_then_close(connection, 413, 10003);
}

TEST(Limits, ChunkedBodyUpToTheLimitIsAccepted) {
  ServerProcess server(small_body_limit());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  const std::string half(kBodyLimit / 2, 'x');
  ASSERT_TRUE(connection.send("POST /v1/decision HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n" +
                              chunk(half) + chunk(half) + std::string(kLastChunk)));
  std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  // Taken whole and handed to the decision endpoint, which refuses its (absent) media type.
  EXPECT_EQ(reply->status, 415);
  EXPECT_TRUE(IsErrorEnvelope(reply->body, 10002));
  EXPECT_FALSE(reply->closes_connection());
  // The chunked framing was consumed exactly: the connection goes on.
  ASSERT_TRUE(connection.send(get_request("/nope")));
  reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 404);
}

TEST(Limits, ExpectContinueGets100ContinueBeforeTheFinalReply) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  const std::string body = R"({"placements":[]})";
  ASSERT_TRUE(connection.send("POST /v1/decision HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                              "Content-Length: " + std::to_string(body.size()) + "\r\nExpect: 100-continue\r\n\r\n"));
  const std::optional<HttpReply> interim = connection.read_reply();
  ASSERT_TRUE(interim) << connection.last_error();
  EXPECT_EQ(interim->raw, "HTTP/1.1 100 Continue\r\n\r\n");
  ASSERT_TRUE(connection.send(body));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 422);  // the body arrived: its empty placements are judged
  EXPECT_TRUE(IsErrorEnvelope(reply->body, 10010));
  EXPECT_FALSE(reply->closes_connection());
}

TEST(Limits, ExpectContinueWithBodyOverLimitGets413Instead) {
  ServerProcess server(small_body_limit());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send("POST /v1/decision HTTP/1.1\r\nHost: t\r\nContent-Length: " +
                              std::to_string(kBodyLimit + 1) + "\r\nExpect: 100-continue\r\n\r\n"));
  expect_error_then_close(connection, 413, 10003);
}

TEST(Limits, ExpectContinueWithoutBodyGetsOnlyTheFinalReply) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  ASSERT_TRUE(connection.send(get_request("/v1/vast", "Expect: 100-continue\r\n")));
  const std::optional<HttpReply> reply = connection.read_reply();
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 403);
}

TEST(Limits, HalfARequestIs408AndClosedWithinRequestTimeout) {
  ServerProcess server(standard_flags({"--request-timeout=1s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  const auto started = Clock::now();
  ASSERT_TRUE(connection.send("GET /v1/vast HTTP/1.1\r\nHost: t\r\n"));  // no blank line
  const std::optional<HttpReply> reply = connection.read_reply(milliseconds(3000));
  const auto waited = Clock::now() - started;
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 408);
  EXPECT_TRUE(IsErrorEnvelope(reply->body, 10008));
  EXPECT_TRUE(reply->closes_connection());
  EXPECT_TRUE(HasDateAndContentLength(*reply));
  EXPECT_TRUE(connection.wait_for_close(milliseconds(1000)));
  // Generous bounds around --request-timeout: the rule, not a latency target.
  EXPECT_GE(waited, milliseconds(500));
  EXPECT_LE(waited, milliseconds(1000 + 1000));
}

// The timeout runs from a request's first byte to its last, so a client that keeps
// trickling bytes cannot hold a connection for ever (slowloris).
TEST(Limits, TricklingRequestIsStill408WithinRequestTimeout) {
  ServerProcess server(standard_flags({"--request-timeout=1s"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  RawConnection connection(server.public_port());
  const auto started = Clock::now();
  ASSERT_TRUE(connection.send("GET /v1/vast HTTP/1.1\r\nX-Slow: "));
  std::optional<HttpReply> reply;
  while (!reply && Clock::now() - started < milliseconds(4000)) {
    if (!connection.send("a")) break;  // the server has closed
    reply = connection.read_reply(milliseconds(200));
  }
  if (!reply) reply = connection.read_reply(milliseconds(1000));
  const auto waited = Clock::now() - started;
  ASSERT_TRUE(reply) << connection.last_error();
  EXPECT_EQ(reply->status, 408);
  EXPECT_TRUE(IsErrorEnvelope(reply->body, 10008));
  EXPECT_LE(waited, milliseconds(1000 + 1000));
}

}  // namespace
}  // namespace integration
