// The bounds of HttpLimits: 431 (10006) for heads, 413 (10003) for bodies.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

using Event = RequestParser::Event;

// The parser counts head bytes as it stores them: the target, then for each header line
// its name, its value and a flat 4 for ": " and CRLF. The method, the version, the request
// line's CRLF, the blank line and whitespace before a value are not counted (llhttp does not
// hand them over). A request whose count is exactly head_bytes: target "/" and one header.
std::string request_with_head_bytes(size_t head_bytes) {
  const size_t fixed = 1 + (5 + 4);  // "/" + "X-Pad" + ": " CRLF
  return "GET / HTTP/1.1\r\nX-Pad: " + std::string(head_bytes - fixed, 'p') + "\r\n\r\n";
}

std::string request_with_header_lines(size_t lines) {
  std::string bytes = "GET / HTTP/1.1\r\n";
  for (size_t i = 0; i < lines; ++i) bytes += "X-" + std::to_string(i) + ": v\r\n";
  return bytes + "\r\n";
}

std::string chunked_request(size_t chunks, size_t chunk_bytes) {
  std::string bytes = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n";
  char size[16];
  snprintf(size, sizeof(size), "%zx", chunk_bytes);
  for (size_t i = 0; i < chunks; ++i) {
    bytes += std::string(size) + "\r\n" + std::string(chunk_bytes, 'b') + "\r\n";
  }
  return bytes + "0\r\n\r\n";
}

class RequestParserLimitsTest : public ::testing::Test {
 protected:
  void expect_refused(std::string_view bytes, int status, int code) {
    const RequestParser::Step step = parser_.feed(bytes);
    ASSERT_EQ(step.event, Event::kError);
    EXPECT_EQ(parser_.error().status, status);
    EXPECT_EQ(parser_.error().code, code);
  }
  void expect_accepted(std::string_view bytes) {
    const RequestParser::Step step = parser_.feed(bytes);
    ASSERT_EQ(step.event, Event::kRequest) << parser_.error().message;
    EXPECT_EQ(step.consumed, bytes.size());
  }

  HttpLimits limits_;
  RequestParser parser_{limits_};
};

TEST_F(RequestParserLimitsTest, HeadExactlyAtHeaderByteLimitIsAccepted) {
  limits_.max_header_bytes = 200;
  expect_accepted(request_with_head_bytes(200));
}

TEST_F(RequestParserLimitsTest, HeadOneByteOverHeaderByteLimitIs431) {
  limits_.max_header_bytes = 200;
  expect_refused(request_with_head_bytes(201), 431, 10006);
  EXPECT_EQ(parser_.error().kind, ParseError::Kind::kHeadersTooLarge);
}

TEST_F(RequestParserLimitsTest, HeaderByteCountDoesNotDependOnHowBytesArrive) {
  limits_.max_header_bytes = 200;
  const std::string at_limit = request_with_head_bytes(200);
  for (size_t i = 0; i + 1 < at_limit.size(); ++i) {
    ASSERT_EQ(parser_.feed(std::string_view(at_limit).substr(i, 1)).event, Event::kNeedMore)
        << "at byte " << i << ": " << parser_.error().message;
  }
  ASSERT_EQ(parser_.feed(std::string_view(at_limit).substr(at_limit.size() - 1)).event,
            Event::kRequest);

  parser_.reset();
  const std::string over = request_with_head_bytes(201);
  size_t fed = 0;
  while (fed < over.size() &&
         parser_.feed(std::string_view(over).substr(fed, 1)).event == Event::kNeedMore) {
    ++fed;
  }
  ASSERT_LT(fed, over.size());
  EXPECT_EQ(parser_.error().status, 431);
}

TEST_F(RequestParserLimitsTest, TargetCountsTowardHeaderByteLimit) {
  limits_.max_header_bytes = 64;
  expect_refused("GET /" + std::string(64, 'a') + " HTTP/1.1\r\n\r\n", 431, 10006);
}

TEST_F(RequestParserLimitsTest, HeaderLinesExactlyAtLimitAreAccepted) {
  limits_.max_headers = 5;
  expect_accepted(request_with_header_lines(5));
  EXPECT_EQ(parser_.request().header_count, 5u);
}

TEST_F(RequestParserLimitsTest, OneHeaderLineOverLimitIs431) {
  limits_.max_headers = 5;
  expect_refused(request_with_header_lines(6), 431, 10006);
}

TEST_F(RequestParserLimitsTest, HeaderLinesBeyondRequestCapacityAre431) {
  limits_.max_headers = 1000;
  expect_refused(request_with_header_lines(Request::kMaxHeaders + 1), 431, 10006);
}

TEST_F(RequestParserLimitsTest, ContentLengthOverLimitIsRefusedBeforeTheBody) {
  limits_.max_body_bytes = 100;
  expect_refused("POST / HTTP/1.1\r\nContent-Length: 101\r\n\r\n", 413, 10003);
  EXPECT_EQ(parser_.error().kind, ParseError::Kind::kBodyTooLarge);
}

TEST_F(RequestParserLimitsTest, ContentLengthBodyExactlyAtLimitIsAccepted) {
  limits_.max_body_bytes = 100;
  expect_accepted("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n" + std::string(100, 'b'));
  EXPECT_EQ(parser_.request().body.size(), 100u);
}

TEST_F(RequestParserLimitsTest, ChunkedBodyOverLimitIs413) {
  limits_.max_body_bytes = 100;
  expect_refused(chunked_request(3, 34), 413, 10003);
}

TEST_F(RequestParserLimitsTest, ChunkedBodyExactlyAtLimitIsAcceptedWhateverItsFraming) {
  // 100 one-byte chunks: 600 bytes on the wire, 100 decoded.
  limits_.max_body_bytes = 100;
  expect_accepted(chunked_request(100, 1));
  EXPECT_EQ(parser_.request().body, std::string(100, 'b'));
}

TEST_F(RequestParserLimitsTest, BodyLimitResetsBetweenPipelinedRequests) {
  limits_.max_body_bytes = 100;
  const std::string one = "POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\n" + std::string(100, 'b');
  const std::string two = chunked_request(2, 50);
  const std::string both = one + two;
  const RequestParser::Step step = parser_.feed(both);
  ASSERT_EQ(step.event, Event::kRequest);
  expect_accepted(std::string_view(both).substr(step.consumed));
}

}  // namespace
}  // namespace http
