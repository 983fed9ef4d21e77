// Pipelined requests come out one at a time, in order; in_message() and reset().
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

using Event = RequestParser::Event;

constexpr std::string_view kFirst = "GET /one?n=1 HTTP/1.1\r\nHost: a\r\n\r\n";
constexpr std::string_view kSecond = "POST /two HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello";
constexpr std::string_view kThird =
    "PUT /three HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n";

class RequestParserPipeliningTest : public ::testing::Test {
 protected:
  HttpLimits limits_;
  RequestParser parser_{limits_};
};

TEST_F(RequestParserPipeliningTest, PipelinedRequestsComeOutInOrderWithTheirOwnLengths) {
  const std::string buffer = std::string(kFirst) + std::string(kSecond) + std::string(kThird);
  std::string_view rest = buffer;

  RequestParser::Step step = parser_.feed(rest);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, kFirst.size());
  EXPECT_EQ(parser_.request().path, "/one");
  EXPECT_EQ(parser_.request().query, "n=1");
  EXPECT_TRUE(parser_.request().body.empty());
  rest.remove_prefix(step.consumed);

  step = parser_.feed(rest);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, kSecond.size());
  EXPECT_EQ(parser_.request().path, "/two");
  EXPECT_EQ(parser_.request().body, "hello");
  EXPECT_FALSE(parser_.request().has_header("Host"));
  rest.remove_prefix(step.consumed);

  step = parser_.feed(rest);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, kThird.size());
  EXPECT_EQ(parser_.request().method, Method::kPut);
  EXPECT_EQ(parser_.request().body, "abc");
  EXPECT_FALSE(parser_.in_message());
}

TEST_F(RequestParserPipeliningTest, RequestCutByTheBufferEndWaitsForTheRest) {
  const std::string buffer = std::string(kFirst) + std::string(kSecond.substr(0, 20));

  RequestParser::Step step = parser_.feed(buffer);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, kFirst.size());

  step = parser_.feed(std::string_view(buffer).substr(step.consumed));
  EXPECT_EQ(step.event, Event::kNeedMore);
  EXPECT_EQ(step.consumed, 20u);
  EXPECT_TRUE(parser_.in_message());

  step = parser_.feed(kSecond.substr(20));
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, kSecond.size() - 20);
  EXPECT_EQ(parser_.request().path, "/two");
  EXPECT_EQ(parser_.request().body, "hello");
}

TEST_F(RequestParserPipeliningTest, EmptyLinesBetweenRequestsAreSkipped) {
  // RFC 9112 section 2.2: a server should ignore at least one empty line before a request.
  const std::string buffer = std::string(kFirst) + "\r\n" + std::string(kSecond);
  RequestParser::Step step = parser_.feed(buffer);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, kFirst.size());
  step = parser_.feed(std::string_view(buffer).substr(step.consumed));
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, 2 + kSecond.size());
  EXPECT_EQ(parser_.request().path, "/two");
}

TEST_F(RequestParserPipeliningTest, FeedingNothingNeedsMore) {
  const RequestParser::Step step = parser_.feed("");
  EXPECT_EQ(step.event, Event::kNeedMore);
  EXPECT_EQ(step.consumed, 0u);
}

TEST_F(RequestParserPipeliningTest, InMessageOnlyBetweenFirstAndLastByteOfARequest) {
  EXPECT_FALSE(parser_.in_message());
  parser_.feed(kSecond.substr(0, 1));
  EXPECT_TRUE(parser_.in_message());
  parser_.feed(kSecond.substr(1, kSecond.size() - 2));
  EXPECT_TRUE(parser_.in_message());
  ASSERT_EQ(parser_.feed(kSecond.substr(kSecond.size() - 1)).event, Event::kRequest);
  EXPECT_FALSE(parser_.in_message());
}

TEST_F(RequestParserPipeliningTest, ResetDropsAPartialRequest) {
  parser_.feed("POST /stale HTTP/1.1\r\nContent-Length: 100\r\n\r\npartial");
  parser_.reset();
  EXPECT_FALSE(parser_.in_message());

  const RequestParser::Step step = parser_.feed(kFirst);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, kFirst.size());
  EXPECT_EQ(parser_.request().path, "/one");
  EXPECT_EQ(parser_.request().header_count, 1u);
}

}  // namespace
}  // namespace http
