// Bytes that are not HTTP/1.1 are refused with 400 (10007), and the refusal sticks.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

using namespace std::string_literals;
using Event = RequestParser::Event;

// Fails the test unless bytes are refused as malformed.
void expect_malformed(std::string_view bytes) {
  HttpLimits limits;
  RequestParser parser(limits);
  const RequestParser::Step step = parser.feed(bytes);
  ASSERT_EQ(step.event, Event::kError);
  EXPECT_EQ(parser.error().status, 400);
  EXPECT_EQ(parser.error().code, 10007);
  EXPECT_EQ(parser.error().kind, ParseError::Kind::kMalformed);
  EXPECT_EQ(parser.error().message, "malformed HTTP request");
}

TEST(RequestParserErrors, NulInHeaderNameIsMalformed) {
  expect_malformed("GET / HTTP/1.1\r\nX-\0Id: 1\r\n\r\n"s);
}

TEST(RequestParserErrors, NulInHeaderValueIsMalformed) {
  expect_malformed("GET / HTTP/1.1\r\nX-Id: 1\0002\r\n\r\n"s);
}

TEST(RequestParserErrors, BadMethodTokenIsMalformed) {
  expect_malformed("G@T / HTTP/1.1\r\n\r\n");
}

TEST(RequestParserErrors, UnregisteredMethodIsMalformed) {
  expect_malformed("FETCH / HTTP/1.1\r\n\r\n");
}

TEST(RequestParserErrors, SpaceInTargetIsMalformed) {
  expect_malformed("GET /a b HTTP/1.1\r\n\r\n");
}

TEST(RequestParserErrors, BadVersionIsMalformed) {
  expect_malformed("GET / HTTP/1.x\r\n\r\n");
}

TEST(RequestParserErrors, ControlCharacterInTargetIsMalformed) {
  expect_malformed("GET /a\x01 HTTP/1.1\r\n\r\n");
}

TEST(RequestParserErrors, WhitespaceBetweenHeaderNameAndColonIsMalformed) {
  // RFC 9112 section 5.1: a server MUST reject such a request with 400.
  expect_malformed("GET / HTTP/1.1\r\nX-Forwarded-For : 10.0.0.1\r\n\r\n");
}

TEST(RequestParserErrors, NonNumericContentLengthIsMalformed) {
  expect_malformed("POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n");
}

TEST(RequestParserErrors, NegativeContentLengthIsMalformed) {
  expect_malformed("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n");
}

TEST(RequestParserErrors, OverflowingContentLengthIsMalformed) {
  expect_malformed("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n");
}

TEST(RequestParserErrors, ConflictingContentLengthsAreMalformed) {
  expect_malformed("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab");
}

TEST(RequestParserErrors, ContentLengthWithTransferEncodingIsMalformed) {
  // RFC 9112 section 6.1: the request-smuggling shape.
  expect_malformed(
      "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"
      "3\r\nabc\r\n0\r\n\r\n");
}

TEST(RequestParserErrors, TransferEncodingNotEndingInChunkedIsMalformed) {
  // RFC 9112 section 6.3: a request's length would be unknowable.
  expect_malformed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\nabc");
}

TEST(RequestParserErrors, BadChunkSizeIsMalformed) {
  expect_malformed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n");
}

TEST(RequestParserErrors, ChunkLongerThanItsSizeIsMalformed) {
  expect_malformed("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n");
}

TEST(RequestParserErrors, ErrorIsStickyUntilReset) {
  HttpLimits limits;
  RequestParser parser(limits);
  ASSERT_EQ(parser.feed("G@T / HTTP/1.1\r\n\r\n").event, Event::kError);

  const std::string_view good = "GET / HTTP/1.1\r\n\r\n";
  RequestParser::Step step = parser.feed(good);
  EXPECT_EQ(step.event, Event::kError);
  EXPECT_EQ(step.consumed, 0u);
  EXPECT_EQ(parser.error().code, 10007);

  parser.reset();
  step = parser.feed(good);
  EXPECT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, good.size());
}

TEST(RequestParserErrors, ErrorAfterAGoodRequestStillRefusesThatBuffer) {
  HttpLimits limits;
  RequestParser parser(limits);
  const std::string_view good = "GET /ok HTTP/1.1\r\n\r\n";
  const std::string bytes = std::string(good) + "BAD\x7f / HTTP/1.1\r\n\r\n";
  RequestParser::Step step = parser.feed(bytes);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(parser.request().path, "/ok");
  step = parser.feed(std::string_view(bytes).substr(step.consumed));
  EXPECT_EQ(step.event, Event::kError);
  EXPECT_EQ(parser.error().status, 400);
}

}  // namespace
}  // namespace http
