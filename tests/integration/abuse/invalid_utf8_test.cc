// Invalid UTF-8 in every string of a decision request and of the tracking and VAST tag
// URLs (issue 12 point 4). In the body it is never a field's 422: simdjson's stage 1
// validates the UTF-8 of every byte before any field is read, so the whole body is 400
// 10001 "body is not valid JSON", whichever field holds it, read or skipped
// (docs/errors.md). Headers and query strings are opaque bytes: each is refused by the
// rule of its own field. Never a 500, never a crash: a well-behaved client is served
// after each.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "tests/integration/abuse/abuse_checks.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tracking_flow.h"

namespace integration::abuse {
namespace {

// Not UTF-8, each for its own reason. The escaped lone surrogate is valid UTF-8 on the
// wire but names no character once unescaped.
const std::vector<std::pair<std::string, std::string>> kBadSequences = {
    {"byte 0xFF", "\xff"},
    {"lone continuation byte", "\x80"},
    {"overlong encoding of '/'", "\xc0\xaf"},
    {"UTF-16 surrogate encoded", "\xed\xa0\x80"},
    {"truncated 3-byte sequence", "\xe2\x82"},
    {"beyond U+10FFFF", "\xf4\x90\x80\x80"},
    {"escaped lone surrogate", "\\ud800"},
};

// Every string field of a decision request (docs/decision-request.md), with `@` where the
// bad bytes go; each body is valid with `@` removed. Version 2025-11-01 reads `format` and
// `destination`.
const std::vector<std::pair<std::string, std::string>> kBodies = {
    {"placements[0].key", R"({"placements":[{"key":"home_top@"}]})"},
    {"placements[0].advertiserId", R"({"placements":[{"key":"home_top","advertiserId":"advertiser_4@3"}]})"},
    {"placements[0].templateId", R"({"placements":[{"key":"home_top","templateId":"template_@3"}]})"},
    {"placements[0].format", R"({"placements":[{"key":"home_top","format":"nat@ive"}]})"},
    {"placements[0].targeting.geo[0]", R"({"placements":[{"key":"home_top","targeting":{"geo":["29@60"]}}]})"},
    {"placements[0].targeting.destination[0]",
     R"({"placements":[{"key":"home_top","targeting":{"destination":["29@60"]}}]})"},
    {"placements[0].targeting.custom value",
     R"({"placements":[{"key":"home_top","targeting":{"custom":{"section":"sp@orts"}}}]})"},
    {"placements[0].targeting.custom key",
     R"({"placements":[{"key":"home_top","targeting":{"custom":{"sec@tion":"sports"}}}]})"},
    {"placements[0].targeting.custom array item",
     R"({"placements":[{"key":"home_top","targeting":{"custom":{"tags":["a","b@"]}}}]})"},
    {"user.id", R"({"placements":[{"key":"home_top"}],"user":{"id":"user-@1"}})"},
    {"user.ip", R"({"placements":[{"key":"home_top"}],"user":{"ip":"192.0.2.1@"}})"},
    {"user.timezone", R"({"placements":[{"key":"home_top"}],"user":{"timezone":"Europe/Par@is"}})"},
    {"user.consent.gdpr",
     R"({"placements":[{"key":"home_top"}],"user":{"consent":{"gdpr":"CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA@"}}})"},
    {"user unknown member", R"({"placements":[{"key":"home_top"}],"user":{"id":"u1","nick@name":"x"}})"},
    {"device member value", R"({"placements":[{"key":"home_top"}],"device":{"os":"And@roid"}})"},
    {"device member key", R"({"placements":[{"key":"home_top"}],"device":{"o@s":"Android"}})"},
    {"app member value", R"({"placements":[{"key":"home_top"}],"app":{"bundle":"com.example@"}})"},
    {"app nested member", R"({"placements":[{"key":"home_top"}],"app":{"store":{"name":"pla@y"}}})"},
    {"unknown top-level member", R"({"placements":[{"key":"home_top"}],"extra@":"x"})"},
};

std::string with_bytes(std::string_view body, std::string_view bytes) {
  std::string out(body);
  out.replace(out.find('@'), 1, bytes);
  return out;
}

std::string without_mark(std::string_view body) { return with_bytes(body, ""); }

class InvalidUtf8 : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(server_.serving()) << server_.start_error(); }

  // One request on a connection of its own; the reply, or a failure.
  std::optional<HttpReply> ask(const std::string& request) {
    RawConnection connection(server_.public_port());
    EXPECT_TRUE(connection.send(request));
    std::optional<HttpReply> reply = connection.read_reply();
    EXPECT_TRUE(reply) << connection.last_error();
    return reply;
  }

  ServerProcess server_{standard_flags()};
};

TEST_F(InvalidUtf8, InEveryStringFieldOfTheBodyIs400With10001ForTheWholeBody) {
  const std::string version = "X-Decision-Version: 2025-11-01\r\n";
  for (const auto& [field, body] : kBodies) {
    SCOPED_TRACE(field);
    // The body without the bad bytes is taken: the refusal is the bytes', not the field's.
    const std::optional<HttpReply> good = ask(post_request("/v1/decision", without_mark(body), version));
    ASSERT_TRUE(good);
    EXPECT_NE(good->status, 400) << good->body;
    EXPECT_LT(good->status, 500) << good->body;
    for (const auto& [why, bytes] : kBadSequences) {
      SCOPED_TRACE(why);
      const std::optional<HttpReply> reply = ask(post_request("/v1/decision", with_bytes(body, bytes), version));
      ASSERT_TRUE(reply);
      EXPECT_EQ(reply->status, 400);
      EXPECT_TRUE(IsErrorEnvelopeListing(reply->body, {{10001, ""}})) << reply->body;
      EXPECT_NE(reply->body.find("body is not valid JSON"), std::string::npos) << reply->body;
      EXPECT_FALSE(reply->closes_connection()) << "a bad body is the request's fault, not the framing's";
    }
  }
  EXPECT_TRUE(WellBehavedClientIsServed(server_));
}

TEST_F(InvalidUtf8, InTheVersionHeaderIs400With10042) {
  for (const auto& [why, bytes] : kBadSequences) {
    SCOPED_TRACE(why);
    const std::optional<HttpReply> reply = ask(post_request(
        "/v1/decision", R"({"placements":[{"key":"home_top"}]})", "X-Decision-Version: 2025-11-0" + bytes + "\r\n"));
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->status, 400);
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10042)) << reply->body;
  }
  EXPECT_TRUE(WellBehavedClientIsServed(server_));
}

// A language range is ASCII letters and digits: an item holding other bytes is malformed
// and skipped; a header of nothing else states no language (warning 20001), and the
// default language is served.
TEST_F(InvalidUtf8, InAcceptLanguageIsSkippedAsAMalformedItem) {
  for (const auto& [why, bytes] : kBadSequences) {
    SCOPED_TRACE(why);
    const std::optional<HttpReply> alone = ask(post_request(
        "/v1/decision", R"({"placements":[{"key":"home_top"}]})", "Accept-Language: fr" + bytes + "\r\n"));
    ASSERT_TRUE(alone);
    EXPECT_EQ(alone->status, 200) << alone->body;
    DecisionReply decision;
    ASSERT_TRUE(ReadDecision(alone->body, decision));
    EXPECT_EQ(decision.warning_codes(), std::vector<int64_t>{20001});
    // Beside a good item, the good item counts: no warning.
    const std::optional<HttpReply> beside = ask(post_request(
        "/v1/decision", R"({"placements":[{"key":"home_top"}]})", "Accept-Language: x" + bytes + ", en\r\n"));
    ASSERT_TRUE(beside);
    EXPECT_EQ(beside->status, 200) << beside->body;
    ASSERT_TRUE(ReadDecision(beside->body, decision));
    EXPECT_TRUE(decision.warning_codes().empty()) << beside->body;
  }
  EXPECT_TRUE(WellBehavedClientIsServed(server_));
}

std::string percent_encoded(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : bytes) {
    out += '%';
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

TEST_F(InvalidUtf8, InTrackingAndVastTagQueryParametersIsRefusedByTheirOwnRules) {
  const CurlReply decided = decide(server_, "utf8-user", 1);
  ASSERT_EQ(decided.status, 200) << decided.body;
  const std::vector<CreativeTokens> tokens = tokens_of(decided.body);
  ASSERT_FALSE(tokens.empty());
  const std::string& token = tokens.front().impression;
  for (const auto& [why, raw] : kBadSequences) {
    SCOPED_TRACE(why);
    for (const std::string& bytes : {raw, percent_encoded(raw)}) {
      // Inside the token, or the token alone: not a token we sealed.
      for (const std::string& t : {token.substr(0, 10) + bytes + token.substr(10), bytes}) {
        const std::optional<HttpReply> reply = ask(get_request("/v1/tracking?t=" + t));
        ASSERT_TRUE(reply);
        EXPECT_EQ(reply->status, 400);
        EXPECT_TRUE(IsErrorEnvelope(reply->body, 10050)) << reply->body;
      }
      // In a parameter outside the seal (a cache-buster, a player's error code): ignored.
      const std::optional<HttpReply> ignored = ask(get_request("/v1/tracking?t=" + token + "&cb=" + bytes + "&code=" + bytes));
      ASSERT_TRUE(ignored);
      EXPECT_EQ(ignored->status, 204) << ignored->raw;
      // A VAST tag whose parameters hold them: its signature does not match.
      const std::optional<HttpReply> tag = ask(get_request("/v1/vast?d=" + bytes + "&sig=" + bytes));
      ASSERT_TRUE(tag);
      EXPECT_EQ(tag->status, 403) << tag->raw;
      EXPECT_TRUE(IsErrorEnvelope(tag->body, 10052)) << tag->body;
    }
  }
  EXPECT_TRUE(WellBehavedClientIsServed(server_));
}

}  // namespace
}  // namespace integration::abuse
