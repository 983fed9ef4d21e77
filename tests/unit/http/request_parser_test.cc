// What a complete request looks like once parsed: request line, headers, bodies.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

using Event = RequestParser::Event;

class RequestParserTest : public ::testing::Test {
 protected:
  // Parses a buffer that holds exactly one request.
  const Request& parse(std::string_view bytes) {
    const RequestParser::Step step = parser_.feed(bytes);
    EXPECT_EQ(step.event, Event::kRequest);
    EXPECT_EQ(step.consumed, bytes.size());
    return parser_.request();
  }

  HttpLimits limits_;
  RequestParser parser_{limits_};
};

TEST_F(RequestParserTest, RequestLineGivesMethodTargetAndVersion) {
  const Request& r = parse("DELETE /v1/items/7 HTTP/1.0\r\n\r\n");
  EXPECT_EQ(r.method, Method::kDelete);
  EXPECT_EQ(r.method_text, "DELETE");
  EXPECT_EQ(r.target, "/v1/items/7");
  EXPECT_EQ(r.version_major, 1);
  EXPECT_EQ(r.version_minor, 0);
}

TEST_F(RequestParserTest, AbsoluteFormTargetGivesItsPathAndQuery) {
  const Request& r = parse("GET http://ads.example:8080/v1/tracking?t=abc HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.target, "http://ads.example:8080/v1/tracking?t=abc");
  EXPECT_EQ(r.path, "/v1/tracking");
  EXPECT_EQ(r.query, "t=abc");
}

TEST_F(RequestParserTest, AbsoluteFormTargetWithoutPathIsTheRoot) {
  const Request& r = parse("GET http://ads.example HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(r.path, "/");
}

TEST_F(RequestParserTest, KnownMethodsMapToTheirEnum) {
  const std::pair<std::string, Method> known[] = {
      {"GET", Method::kGet},       {"HEAD", Method::kHead},       {"POST", Method::kPost},
      {"PUT", Method::kPut},       {"DELETE", Method::kDelete},   {"OPTIONS", Method::kOptions},
      {"PATCH", Method::kPatch}};
  for (const auto& [text, method] : known) {
    SCOPED_TRACE(text);
    parser_.reset();
    const Request& r = parse(text + " / HTTP/1.1\r\n\r\n");
    EXPECT_EQ(r.method, method);
    EXPECT_EQ(r.method_text, text);
  }
}

TEST_F(RequestParserTest, OtherRegisteredMethodsAreOtherWithTheirText) {
  const Request& r = parse("PROPFIND /dav HTTP/1.1\r\n\r\n");
  EXPECT_EQ(r.method, Method::kOther);
  EXPECT_EQ(r.method_text, "PROPFIND");
}

TEST_F(RequestParserTest, QuerySplitsTargetAtFirstQuestionMark) {
  const Request& r = parse("GET /v1/ads?slot=top&q=a?b HTTP/1.1\r\n\r\n");
  EXPECT_EQ(r.target, "/v1/ads?slot=top&q=a?b");
  EXPECT_EQ(r.path, "/v1/ads");
  EXPECT_EQ(r.query, "slot=top&q=a?b");
}

TEST_F(RequestParserTest, TargetWithoutQuestionMarkHasEmptyQuery) {
  const Request& r = parse("GET /health HTTP/1.1\r\n\r\n");
  EXPECT_EQ(r.path, "/health");
  EXPECT_TRUE(r.query.empty());
}

TEST_F(RequestParserTest, TrailingQuestionMarkGivesEmptyQuery) {
  const Request& r = parse("GET /health? HTTP/1.1\r\n\r\n");
  EXPECT_EQ(r.path, "/health");
  EXPECT_TRUE(r.query.empty());
}

TEST_F(RequestParserTest, HeadersKeepTheirOrderAndSpelling) {
  const Request& r = parse("GET / HTTP/1.1\r\nHost: a.example\r\nX-Trace-Id: 42\r\n\r\n");
  ASSERT_EQ(r.header_count, 2u);
  EXPECT_EQ(r.headers[0].name, "Host");
  EXPECT_EQ(r.headers[0].value, "a.example");
  EXPECT_EQ(r.headers[1].name, "X-Trace-Id");
  EXPECT_EQ(r.headers[1].value, "42");
}

TEST_F(RequestParserTest, HeaderLookupIgnoresCase) {
  const Request& r = parse("GET / HTTP/1.1\r\nX-Trace-Id: 42\r\n\r\n");
  EXPECT_EQ(r.header("x-trace-id"), "42");
  EXPECT_EQ(r.header("X-TRACE-ID"), "42");
  EXPECT_TRUE(r.has_header("x-TRACE-id"));
}

TEST_F(RequestParserTest, HeaderLookupGivesFirstOccurrence) {
  const Request& r = parse("GET / HTTP/1.1\r\nAccept: a\r\naccept: b\r\n\r\n");
  EXPECT_EQ(r.header("Accept"), "a");
}

TEST_F(RequestParserTest, MissingHeaderIsEmptyAndAbsent) {
  const Request& r = parse("GET / HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_TRUE(r.header("Cookie").empty());
  EXPECT_FALSE(r.has_header("Cookie"));
}

TEST_F(RequestParserTest, EmptyHeaderValueIsPresentAndDoesNotJoinTheNextName) {
  const Request& r = parse("GET / HTTP/1.1\r\nX-Empty:\r\nHost: a\r\n\r\n");
  ASSERT_EQ(r.header_count, 2u);
  EXPECT_TRUE(r.has_header("X-Empty"));
  EXPECT_EQ(r.header("X-Empty"), "");
  EXPECT_EQ(r.header("Host"), "a");
}

TEST_F(RequestParserTest, HeaderValueExcludesLeadingAndTrailingWhitespace) {
  // RFC 9110 section 5.5: a field value does not include leading or trailing whitespace.
  const Request& r = parse("GET / HTTP/1.1\r\nHost: \t a.example \t\r\n\r\n");
  EXPECT_EQ(r.header("Host"), std::string_view("a.example"));
}

TEST_F(RequestParserTest, ContentLengthBodyIsTheBody) {
  const Request& r = parse("POST /e HTTP/1.1\r\nContent-Length: 11\r\n\r\nhello world");
  EXPECT_EQ(r.body, "hello world");
}

TEST_F(RequestParserTest, RequestWithoutLengthHasNoBody) {
  const Request& r = parse("POST /e HTTP/1.1\r\nHost: a\r\n\r\n");
  EXPECT_TRUE(r.body.empty());
}

TEST_F(RequestParserTest, ChunkedBodyIsDecoded) {
  const Request& r = parse(
      "POST /e HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5\r\nhello\r\n1;name=value\r\n \r\nA\r\n0123456789\r\n0\r\n\r\n");
  EXPECT_EQ(r.body, "hello 0123456789");
}

TEST_F(RequestParserTest, TrailerFieldsAreNotRequestHeaders) {
  // RFC 9110 section 6.5.1: trailers are not merged into the header section unless the
  // field's definition allows it; a handler reading header() must not see them.
  const Request& r = parse(
      "POST /e HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
      "2\r\nok\r\n0\r\nX-Api-Key: forged\r\n\r\n");
  EXPECT_EQ(r.body, "ok");
  EXPECT_FALSE(r.has_header("X-Api-Key"));
  EXPECT_EQ(r.header_count, 1u);
}

}  // namespace
}  // namespace http
