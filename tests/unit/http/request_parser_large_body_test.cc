// A large body of known length is held apart from the head, so that a handler may take it
// without a copy (Request::owned_body), and is sized once from Content-Length.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "http/request_parser.h"
#include "tests/unit/http/parsed_request.h"

namespace http {
namespace {

using Event = RequestParser::Event;

constexpr size_t kLarge = (1 << 20) + 123;  // past the 1 MiB from which a body is held apart

std::string post_with_body(const std::string& body) {
  return "POST /admin/catalog HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

std::string patterned(size_t n) {
  std::string s(n, ' ');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

class LargeBodyTest : public ::testing::Test {
 protected:
  LargeBodyTest() { limits_.max_body_bytes = 4 << 20; }
  HttpLimits limits_;
  RequestParser parser_{limits_};
};

TEST_F(LargeBodyTest, SmallBodyStaysWithTheHeadAndIsNotOffered) {
  const std::string bytes = post_with_body("{\"a\":1}");
  const RequestParser::Step step = parser_.feed(bytes);
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(parser_.request().body, "{\"a\":1}");
  EXPECT_EQ(parser_.request().owned_body, nullptr);
}

TEST_F(LargeBodyTest, LargeBodyArrivingInPiecesIsWholeAndMayBeTaken) {
  const std::string body = patterned(kLarge);
  const std::string bytes = post_with_body(body);
  size_t fed = 0;
  RequestParser::Step step{};
  while (fed < bytes.size()) {
    const std::string_view piece = std::string_view(bytes).substr(fed, 65536);
    step = parser_.feed(piece);
    ASSERT_NE(step.event, Event::kError);
    fed += step.consumed;
    if (step.event == Event::kRequest) break;
  }
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(fed, bytes.size());
  const Request& request = parser_.request();
  EXPECT_EQ(request.header("Content-Type"), "application/json");
  ASSERT_NE(request.owned_body, nullptr);
  EXPECT_EQ(request.body.size(), kLarge);
  EXPECT_TRUE(request.body == body);
  const std::string taken = std::move(*request.owned_body);
  EXPECT_TRUE(taken == body);
}

TEST_F(LargeBodyTest, NextRequestParsesAfterALargeBodyWasTaken) {
  const std::string body = patterned(kLarge);
  const std::string first = post_with_body(body);
  const std::string second = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
  const std::string bytes = first + second;
  RequestParser::Step step = parser_.feed(bytes);
  ASSERT_EQ(step.event, Event::kRequest);
  ASSERT_EQ(step.consumed, first.size());
  ASSERT_NE(parser_.request().owned_body, nullptr);
  const std::string taken = std::move(*parser_.request().owned_body);
  EXPECT_EQ(taken.size(), kLarge);

  step = parser_.feed(std::string_view(bytes).substr(first.size()));
  ASSERT_EQ(step.event, Event::kRequest);
  EXPECT_EQ(parser_.request().path, "/healthz");
  EXPECT_EQ(parser_.request().body, "");
  EXPECT_EQ(parser_.request().owned_body, nullptr);
}

TEST_F(LargeBodyTest, LargeBodyNotTakenIsReadableAndTheNextLargeOneReplacesIt) {
  const std::string one = patterned(kLarge);
  const std::string two(kLarge + 7, 'z');
  ASSERT_EQ(parser_.feed(post_with_body(one)).event, Event::kRequest);
  EXPECT_TRUE(parser_.request().body == one);
  ASSERT_EQ(parser_.feed(post_with_body(two)).event, Event::kRequest);
  EXPECT_TRUE(parser_.request().body == two);
}

TEST_F(LargeBodyTest, DeclaredLengthPastTheLimitIsRefusedBeforeAnythingIsReserved) {
  limits_.max_body_bytes = 2 << 20;
  const std::string head =
      "POST /admin/catalog HTTP/1.1\r\nHost: x\r\nContent-Length: " + std::to_string(3 << 20) + "\r\n\r\n";
  const RequestParser::Step step = parser_.feed(head);
  EXPECT_EQ(step.event, Event::kError);
  EXPECT_EQ(parser_.error().status, 413);
}

}  // namespace
}  // namespace http
