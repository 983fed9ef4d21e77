// Whether the connection stays open after a request (RFC 9112 section 9.3).
#include <gtest/gtest.h>

#include <string_view>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

// keep_alive of the one request in bytes.
bool keep_alive_of(std::string_view bytes) {
  HttpLimits limits;
  RequestParser parser(limits);
  const RequestParser::Step step = parser.feed(bytes);
  EXPECT_EQ(step.event, RequestParser::Event::kRequest);
  return parser.request().keep_alive;
}

TEST(RequestParserKeepAlive, Http11KeepsAliveByDefault) {
  EXPECT_TRUE(keep_alive_of("GET / HTTP/1.1\r\nHost: a\r\n\r\n"));
}

TEST(RequestParserKeepAlive, Http11WithConnectionCloseCloses) {
  EXPECT_FALSE(keep_alive_of("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"));
}

TEST(RequestParserKeepAlive, ConnectionCloseIgnoresCase) {
  EXPECT_FALSE(keep_alive_of("GET / HTTP/1.1\r\nconnection: Close\r\n\r\n"));
}

TEST(RequestParserKeepAlive, Http10ClosesByDefault) {
  EXPECT_FALSE(keep_alive_of("GET / HTTP/1.0\r\nHost: a\r\n\r\n"));
}

TEST(RequestParserKeepAlive, Http10WithConnectionKeepAliveKeepsAlive) {
  EXPECT_TRUE(keep_alive_of("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
}

TEST(RequestParserKeepAlive, UpgradeRequestIsNotKeptAlive) {
  // The server does not take up upgrades: it answers and closes.
  EXPECT_FALSE(
      keep_alive_of("GET / HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n"));
}

}  // namespace
}  // namespace http
