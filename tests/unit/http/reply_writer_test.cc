// A reply's bytes on the wire (RFC 9112 sections 4 and 6).
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

#include "http/reply_writer.h"
#include "http/response.h"

namespace http {
namespace {

constexpr std::string_view kDate = "Sun, 06 Nov 1994 08:49:37 GMT";

std::string reply(const Response& response, bool close = false) {
  std::string out;
  append_reply(out, response, kDate, close);
  return out;
}

TEST(ReplyWriter, ReplyIsStatusLineDateTypeLengthBlankLineBody) {
  Response response;
  response.set_json(200);
  response.body() = R"({"ok":true})";
  EXPECT_EQ(reply(response),
            "HTTP/1.1 200 OK\r\n"
            "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            "Content-Type: application/json\r\n"
            "Content-Length: 11\r\n"
            "\r\n"
            R"({"ok":true})");
}

TEST(ReplyWriter, StatusLineCarriesTheReasonPhrase) {
  const std::pair<int, std::string> cases[] = {
      {204, "HTTP/1.1 204 No Content\r\n"},
      {404, "HTTP/1.1 404 Not Found\r\n"},
      {413, "HTTP/1.1 413 Content Too Large\r\n"},
      {431, "HTTP/1.1 431 Request Header Fields Too Large\r\n"},
      {503, "HTTP/1.1 503 Service Unavailable\r\n"},
      {599, "HTTP/1.1 599 Unknown\r\n"},
  };
  for (const auto& [status, line] : cases) {
    Response response;
    response.set_status(status);
    EXPECT_EQ(reply(response).substr(0, line.size()), line);
  }
}

TEST(ReplyWriter, ContentTypeIsLeftOutWhenUnset) {
  Response response;
  response.set_status(200);
  EXPECT_EQ(reply(response),
            "HTTP/1.1 200 OK\r\n"
            "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            "Content-Length: 0\r\n"
            "\r\n");
}

TEST(ReplyWriter, ContentLengthCountsBodyBytes) {
  Response response;
  response.set_text(200, std::string(1000, 'x') + "\xc3\xa9");
  const std::string out = reply(response);
  EXPECT_NE(out.find("\r\nContent-Length: 1002\r\n"), std::string::npos) << out;
  EXPECT_EQ(out.substr(out.size() - 1002), response.body());
}

TEST(ReplyWriter, ExtraHeadersFollowInTheOrderAdded) {
  Response response;
  response.set_status(405);
  response.add_header("Allow", "GET, POST");
  response.add_header("Cache-Control", "no-store");
  EXPECT_EQ(reply(response),
            "HTTP/1.1 405 Method Not Allowed\r\n"
            "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            "Content-Length: 0\r\n"
            "Allow: GET, POST\r\n"
            "Cache-Control: no-store\r\n"
            "\r\n");
}

TEST(ReplyWriter, ClosingReplySaysConnectionClose) {
  Response response;
  response.set_text(400, "bad");
  response.add_header("X-Request-Id", "7");
  EXPECT_EQ(reply(response, /*close=*/true),
            "HTTP/1.1 400 Bad Request\r\n"
            "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            "Content-Type: text/plain; charset=utf-8\r\n"
            "Content-Length: 3\r\n"
            "X-Request-Id: 7\r\n"
            "Connection: close\r\n"
            "\r\n"
            "bad");
}

TEST(ReplyWriter, NoContentReplyHasNoContentLength) {
  // RFC 9110 section 8.6: a server MUST NOT send Content-Length in a 204 response.
  Response response;
  response.set_status(204);
  EXPECT_EQ(reply(response),
            "HTTP/1.1 204 No Content\r\n"
            "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
            "\r\n");
}

TEST(ReplyWriter, RepliesAppendToQueuedOutput) {
  Response response;
  response.set_status(200);
  std::string out = "queued";
  append_reply(out, response, kDate, false);
  EXPECT_EQ(out, "queued" + reply(response));
}

TEST(ReplyWriter, ContinueIsABareInterimStatusLine) {
  std::string out = "x";
  append_continue(out);
  EXPECT_EQ(out, "xHTTP/1.1 100 Continue\r\n\r\n");
}

}  // namespace
}  // namespace http
