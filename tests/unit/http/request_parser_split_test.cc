// Bytes may arrive split anywhere: every split gives the same request as one buffer.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

using Event = RequestParser::Event;
using testing::ParsedRequest;

constexpr std::string_view kLengthRequest =
    "POST /v1/ads?slot=top HTTP/1.1\r\n"
    "Host: ads.example\r\n"
    "X-Empty:\r\n"
    "Content-Type: application/json\r\n"
    "Content-Length: 13\r\n"
    "\r\n"
    "{\"a\":[1,2,3]}";

constexpr std::string_view kChunkedRequest =
    "POST /v1/events HTTP/1.1\r\n"
    "Host: ads.example\r\n"
    "Transfer-Encoding: chunked\r\n"
    "\r\n"
    "5\r\nhello\r\n"
    "1;ext=x\r\n \r\n"
    "C\r\nchunked body\r\n"
    "0\r\n"
    "\r\n";

ParsedRequest parse_whole(std::string_view bytes) {
  HttpLimits limits;
  RequestParser parser(limits);
  const RequestParser::Step step = parser.feed(bytes);
  EXPECT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, bytes.size());
  return testing::own(parser.request());
}

void expect_same_at_every_split(std::string_view bytes, const ParsedRequest& whole) {
  HttpLimits limits;
  for (size_t cut = 1; cut < bytes.size(); ++cut) {
    SCOPED_TRACE(::testing::Message() << "split after byte " << cut);
    RequestParser parser(limits);
    RequestParser::Step step = parser.feed(bytes.substr(0, cut));
    ASSERT_EQ(step.event, Event::kNeedMore);
    ASSERT_EQ(step.consumed, cut);
    step = parser.feed(bytes.substr(cut));
    ASSERT_EQ(step.event, Event::kRequest);
    ASSERT_EQ(step.consumed, bytes.size() - cut);
    ASSERT_EQ(testing::own(parser.request()), whole);
  }
}

void expect_same_one_byte_at_a_time(std::string_view bytes, const ParsedRequest& whole) {
  HttpLimits limits;
  RequestParser parser(limits);
  for (size_t i = 0; i + 1 < bytes.size(); ++i) {
    const RequestParser::Step step = parser.feed(bytes.substr(i, 1));
    ASSERT_EQ(step.event, Event::kNeedMore) << "at byte " << i;
    ASSERT_EQ(step.consumed, 1u) << "at byte " << i;
  }
  const RequestParser::Step step = parser.feed(bytes.substr(bytes.size() - 1));
  ASSERT_EQ(step.event, Event::kRequest);
  ASSERT_EQ(step.consumed, 1u);
  EXPECT_EQ(testing::own(parser.request()), whole);
}

TEST(RequestParserSplit, LengthRequestInOneBufferIsParsedFully) {
  const ParsedRequest whole = parse_whole(kLengthRequest);
  EXPECT_EQ(whole.path, "/v1/ads");
  EXPECT_EQ(whole.query, "slot=top");
  EXPECT_EQ(whole.headers.size(), 4u);
  EXPECT_EQ(whole.body, "{\"a\":[1,2,3]}");
}

TEST(RequestParserSplit, ChunkedRequestInOneBufferIsParsedFully) {
  const ParsedRequest whole = parse_whole(kChunkedRequest);
  EXPECT_EQ(whole.path, "/v1/events");
  EXPECT_EQ(whole.headers.size(), 2u);
  EXPECT_EQ(whole.body, "hello chunked body");
}

TEST(RequestParserSplit, LengthRequestSplitAtEveryByteIsTheSame) {
  expect_same_at_every_split(kLengthRequest, parse_whole(kLengthRequest));
}

TEST(RequestParserSplit, ChunkedRequestSplitAtEveryByteIsTheSame) {
  expect_same_at_every_split(kChunkedRequest, parse_whole(kChunkedRequest));
}

TEST(RequestParserSplit, LengthRequestOneByteAtATimeIsTheSame) {
  expect_same_one_byte_at_a_time(kLengthRequest, parse_whole(kLengthRequest));
}

TEST(RequestParserSplit, ChunkedRequestOneByteAtATimeIsTheSame) {
  expect_same_one_byte_at_a_time(kChunkedRequest, parse_whole(kChunkedRequest));
}

TEST(RequestParserSplit, PipelinedRequestsOneByteAtATimeComeOutInOrder) {
  const std::string both = std::string(kLengthRequest) + std::string(kChunkedRequest);
  HttpLimits limits;
  RequestParser parser(limits);
  std::vector<ParsedRequest> seen;
  std::vector<size_t> ends;
  for (size_t i = 0; i < both.size(); ++i) {
    const RequestParser::Step step = parser.feed(std::string_view(both).substr(i, 1));
    ASSERT_NE(step.event, Event::kError) << "at byte " << i;
    ASSERT_EQ(step.consumed, 1u) << "at byte " << i;
    if (step.event == Event::kRequest) {
      seen.push_back(testing::own(parser.request()));
      ends.push_back(i + 1);
    }
  }
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], parse_whole(kLengthRequest));
  EXPECT_EQ(seen[1], parse_whole(kChunkedRequest));
  EXPECT_EQ(ends[0], kLengthRequest.size());
  EXPECT_EQ(ends[1], both.size());
}

}  // namespace
}  // namespace http
