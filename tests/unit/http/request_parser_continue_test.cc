// Expect: 100-continue (RFC 9110 section 10.1.1): the parser stops before a body the
// client is holding back, so the connection can send the interim 100 reply.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

using Event = RequestParser::Event;

class RequestParserContinueTest : public ::testing::Test {
 protected:
  HttpLimits limits_;
  RequestParser parser_{limits_};
};

TEST_F(RequestParserContinueTest, ContinueComesAfterHeadersWhenALengthBodyIsExpected) {
  const std::string head = "POST /e HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n";
  const std::string bytes = head + "hello";

  RequestParser::Step step = parser_.feed(bytes);
  ASSERT_EQ(step.event, Event::kContinue);
  EXPECT_EQ(step.consumed, head.size());
  EXPECT_TRUE(parser_.in_message());

  step = parser_.feed(std::string_view(bytes).substr(step.consumed));
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, 5u);
  EXPECT_EQ(parser_.request().body, "hello");
}

TEST_F(RequestParserContinueTest, ContinueComesWhenAChunkedBodyIsExpected) {
  const std::string head =
      "POST /e HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n";
  RequestParser::Step step = parser_.feed(head);
  ASSERT_EQ(step.event, Event::kContinue);
  EXPECT_EQ(step.consumed, head.size());

  step = parser_.feed("2\r\nok\r\n0\r\n\r\n");
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(parser_.request().body, "ok");
}

TEST_F(RequestParserContinueTest, ExpectationValueIgnoresCaseAndSurroundingSpace) {
  const RequestParser::Step step =
      parser_.feed("POST /e HTTP/1.1\r\nexpect:  100-Continue \r\nContent-Length: 1\r\n\r\n");
  EXPECT_EQ(step.event, Event::kContinue);
}

TEST_F(RequestParserContinueTest, NoContinueWithoutABody) {
  const std::string bytes = "POST /e HTTP/1.1\r\nExpect: 100-continue\r\n\r\n";
  const RequestParser::Step step = parser_.feed(bytes);
  EXPECT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, bytes.size());
}

TEST_F(RequestParserContinueTest, NoContinueForAZeroLengthBody) {
  const std::string bytes = "POST /e HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n";
  const RequestParser::Step step = parser_.feed(bytes);
  EXPECT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(step.consumed, bytes.size());
}

TEST_F(RequestParserContinueTest, NoContinueForHttp10) {
  // RFC 9110 section 10.1.1: a server must not send 100 to an HTTP/1.0 client.
  const std::string bytes =
      "POST /e HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nab";
  const RequestParser::Step step = parser_.feed(bytes);
  EXPECT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(parser_.request().body, "ab");
}

TEST_F(RequestParserContinueTest, NoContinueForOtherExpectations) {
  const std::string bytes = "POST /e HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 2\r\n\r\nab";
  EXPECT_EQ(parser_.feed(bytes).event, Event::kRequest);
}

TEST_F(RequestParserContinueTest, BodyOverLimitIsRefusedInsteadOfInvited) {
  limits_.max_body_bytes = 4;
  const RequestParser::Step step =
      parser_.feed("POST /e HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  ASSERT_EQ(step.event, Event::kError);
  EXPECT_EQ(parser_.error().status, 413);
}

}  // namespace
}  // namespace http
