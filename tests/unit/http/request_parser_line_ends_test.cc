// Line ends and folded lines of a request head (http/head_line_guard.h): what llhttp 8
// would take and a proxy in front may read otherwise (request smuggling) is refused with
// 400 10007, however the bytes are split; CRLF heads, and empty lines before a request
// line, are still served.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

using Event = RequestParser::Event;

// Refused whole and at every split into two feeds.
void expect_malformed_however_split(std::string_view bytes) {
  HttpLimits limits;
  {
    RequestParser parser(limits);
    const RequestParser::Step step = parser.feed(bytes);
    ASSERT_EQ(step.event, Event::kError);
    EXPECT_EQ(parser.error().status, 400);
    EXPECT_EQ(parser.error().code, 10007);
  }
  for (size_t cut = 1; cut < bytes.size(); ++cut) {
    SCOPED_TRACE(::testing::Message() << "split after byte " << cut);
    RequestParser parser(limits);
    RequestParser::Step step = parser.feed(bytes.substr(0, cut));
    if (step.event != Event::kError) {
      ASSERT_EQ(step.event, Event::kNeedMore);
      step = parser.feed(bytes.substr(cut));
    }
    ASSERT_EQ(step.event, Event::kError);
    EXPECT_EQ(parser.error().code, 10007);
  }
}

TEST(RequestParserLineEnds, BareLfAfterTheRequestLineIsMalformed) {
  expect_malformed_however_split("GET /nope HTTP/1.1\nHost: t\r\n\r\n");
}

TEST(RequestParserLineEnds, BareLfAfterAHeaderLineIsMalformed) {
  expect_malformed_however_split("GET / HTTP/1.1\r\nHost: t\nX-A: b\r\n\r\n");
}

TEST(RequestParserLineEnds, BareLfEndingTheHeadIsMalformed) {
  expect_malformed_however_split("GET / HTTP/1.1\r\nHost: t\r\n\n");
}

TEST(RequestParserLineEnds, HeadOfBareLfsIsMalformed) {
  expect_malformed_however_split("GET / HTTP/1.1\nHost: t\n\n");
}

TEST(RequestParserLineEnds, BareLfBeforeTheRequestLineIsMalformed) {
  expect_malformed_however_split("\nGET / HTTP/1.1\r\nHost: t\r\n\r\n");
}

TEST(RequestParserLineEnds, BareCrIsMalformed) {
  expect_malformed_however_split("GET / HTTP/1.1\r\nHost: t\rX-A: b\r\n\r\n");
}

TEST(RequestParserLineEnds, ObsFoldIsMalformed) {
  // RFC 9112 section 5.2: refuse it, or unfold it; we refuse.
  expect_malformed_however_split("GET / HTTP/1.1\r\nHost: t\r\nX-A: a\r\n b\r\n\r\n");
  expect_malformed_however_split("GET / HTTP/1.1\r\nHost: t\r\nX-A: a\r\n\tb\r\n\r\n");
}

TEST(RequestParserLineEnds, FoldedContentLengthIsMalformed) {
  expect_malformed_however_split("POST / HTTP/1.1\r\nHost: t\r\nContent-Length:\r\n 2\r\n\r\nab");
}

TEST(RequestParserLineEnds, WhitespaceBeforeTheFirstHeaderLineIsMalformed) {
  // RFC 9112 section 2.2: it could hide a header from us that a proxy reads.
  expect_malformed_however_split("GET / HTTP/1.1\r\n Host: t\r\n\r\n");
}

TEST(RequestParserLineEnds, EmptyLinesBeforeARequestLineAreSkipped) {
  HttpLimits limits;
  RequestParser parser(limits);
  const std::string_view bytes = "\r\n\r\nGET /a HTTP/1.1\r\nHost: t\r\n\r\n";
  const RequestParser::Step step = parser.feed(bytes);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(parser.request().path, "/a");
}

TEST(RequestParserLineEnds, BodyBytesAreNotLinesOfTheHead) {
  // A JSON body may hold bare LFs and lines starting with spaces; the next request's head
  // is judged again from its first byte.
  HttpLimits limits;
  RequestParser parser(limits);
  const std::string body = "{\n  \"a\": 1\n}\n";
  const std::string first = "POST /a HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(body.size()) +
                            "\r\n\r\n" + body;
  const std::string bytes = first + "GET /b HTTP/1.1\nHost: t\r\n\r\n";
  RequestParser::Step step = parser.feed(bytes);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(parser.request().body, body);
  ASSERT_EQ(step.consumed, first.size());
  step = parser.feed(std::string_view(bytes).substr(step.consumed));
  EXPECT_EQ(step.event, Event::kError) << "the second head ends its request line in a bare LF";
}

TEST(RequestParserLineEnds, PipelinedCrlfHeadsAreEachServed) {
  HttpLimits limits;
  RequestParser parser(limits);
  const std::string one = "GET /a HTTP/1.1\r\nHost: t\r\n\r\n";
  const std::string bytes = one + one;
  RequestParser::Step step = parser.feed(bytes);
  ASSERT_EQ(step.event, Event::kRequest);
  step = parser.feed(std::string_view(bytes).substr(step.consumed));
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(parser.request().path, "/a");
}

TEST(RequestParserLineEnds, ChunkSizeLineEndingInCrAndAnotherByteIsMalformed) {
  expect_malformed_however_split("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2\rXab\r\n0\r\n\r\n");
}

TEST(RequestParserLineEnds, BareLfEndingTheTrailersIsMalformed) {
  expect_malformed_however_split("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\n");
}

TEST(RequestParserLineEnds, FoldedTrailerLineIsMalformed) {
  expect_malformed_however_split(
      "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\nX: a\r\n b\r\n\r\n");
}

TEST(RequestParserLineEnds, ChunkedBodyWithTrailersIsServedHoweverSplit) {
  HttpLimits limits;
  const std::string bytes =
      "POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n3;x=y\r\ncde\r\n0\r\nX: a\r\n\r\n"
      "GET /next HTTP/1.1\r\nHost: t\r\n\r\n";
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    SCOPED_TRACE(::testing::Message() << "split after byte " << cut);
    RequestParser parser(limits);
    std::string_view rest = bytes;
    std::string_view pending = rest.substr(0, cut);
    rest.remove_prefix(cut);
    std::vector<std::string> bodies;
    std::vector<std::string> paths;
    // Feed the first piece, then the second, as a connection does.
    for (std::string_view piece : {pending, rest}) {
      while (!piece.empty()) {
        const RequestParser::Step step = parser.feed(piece);
        ASSERT_NE(step.event, Event::kError);
        piece.remove_prefix(step.consumed);
        if (step.event == Event::kRequest) {
          bodies.emplace_back(parser.request().body);
          paths.emplace_back(parser.request().path);
        }
        if (step.event == Event::kNeedMore) break;
      }
    }
    ASSERT_EQ(paths, (std::vector<std::string>{"/", "/next"}));
    EXPECT_EQ(bodies[0], "abcde");
  }
}

}  // namespace
}  // namespace http
