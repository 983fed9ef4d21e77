// Cross-origin calls (service/cross_origin.h, docs/decision-response.md "Calls from other
// origins"): a page of another origin may ask for a decision (the preflight is answered
// 204) and read its reply, errors included; tracking and VAST replies allow every origin;
// the admin listener allows none.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

constexpr std::string_view kOrigin = "Origin: https://publisher.example\r\n";

HttpReply exchange(uint16_t port, const std::string& request) {
  RawConnection connection(port);
  EXPECT_TRUE(connection.send(request));
  std::optional<HttpReply> reply = connection.read_reply();
  EXPECT_TRUE(reply) << connection.last_error();
  return reply.value_or(HttpReply{});
}

std::string preflight(std::string_view path, std::string_view method, std::string_view headers) {
  return "OPTIONS " + std::string(path) + " HTTP/1.1\r\nHost: decisiond.test\r\n" + std::string(kOrigin) +
         "Access-Control-Request-Method: " + std::string(method) + "\r\n" +
         "Access-Control-Request-Headers: " + std::string(headers) + "\r\n\r\n";
}

void expect_decision_cors(const HttpReply& reply) {
  EXPECT_EQ(reply.header("Access-Control-Allow-Origin"), "*") << reply.status_line;
  EXPECT_EQ(reply.header_count("Access-Control-Allow-Origin"), 1u) << reply.status_line;
  EXPECT_EQ(reply.header("Access-Control-Expose-Headers"), "X-Decision-Version, X-API-Deprecated, Sunset, Retry-After")
      << reply.status_line;
}

TEST(CrossOrigin, ADecisionPreflightIs204WithMethodHeadersAndMaxAge) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const HttpReply reply =
      exchange(server.public_port(), preflight("/v1/decision", "POST", "content-type,x-decision-version"));
  EXPECT_EQ(reply.status, 204);
  EXPECT_TRUE(reply.body.empty());
  EXPECT_FALSE(reply.header("Content-Length"));
  EXPECT_EQ(reply.header("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(reply.header("Access-Control-Allow-Methods"), "POST");
  EXPECT_EQ(reply.header("Access-Control-Allow-Headers"), "Content-Type, Content-Encoding, X-Decision-Version, Accept-Language");
  EXPECT_EQ(reply.header("Access-Control-Max-Age"), "7200");
  EXPECT_FALSE(reply.closes_connection());
}

TEST(CrossOrigin, APreflightIsAnsweredWhateverItAsksTheBrowserJudges) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const HttpReply reply = exchange(server.public_port(), preflight("/v1/decision", "DELETE", "x-something-else"));
  EXPECT_EQ(reply.status, 204);
  EXPECT_EQ(reply.header("Access-Control-Allow-Methods"), "POST");
}

TEST(CrossOrigin, DecisionRepliesAllowEveryOriginAndExposeTheHeadersClientsRead) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const std::string origin_and_version = std::string(kOrigin) + "X-Decision-Version: 2025-11-01\r\n";
  const HttpReply served = exchange(
      server.public_port(), post_request("/v1/decision", R"({"placements":[{"key":"home_top"}]})", origin_and_version));
  EXPECT_EQ(served.status, 200);
  expect_decision_cors(served);
  // Refusals carry them too, so a page reads the envelope rather than an opaque failure.
  const HttpReply invalid = exchange(server.public_port(), post_request("/v1/decision", R"({"placements":[]})", kOrigin));
  EXPECT_EQ(invalid.status, 422);
  expect_decision_cors(invalid);
  const HttpReply bad_version = exchange(
      server.public_port(), post_request("/v1/decision", "{}", std::string(kOrigin) + "X-Decision-Version: latest\r\n"));
  EXPECT_EQ(bad_version.status, 400);
  expect_decision_cors(bad_version);
  const HttpReply wrong_method = exchange(server.public_port(), get_request("/v1/decision", kOrigin));
  EXPECT_EQ(wrong_method.status, 405);
  EXPECT_EQ(wrong_method.header("Allow"), "POST, OPTIONS");
  expect_decision_cors(wrong_method);
}

TEST(CrossOrigin, TrackingAndVastRepliesAllowEveryOrigin) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const HttpReply tracking = exchange(server.public_port(), get_request("/v1/tracking?t=AAAA", kOrigin));
  EXPECT_EQ(tracking.status, 400);
  EXPECT_EQ(tracking.header("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(tracking.header("Access-Control-Expose-Headers"),
            "X-Tracking-Version, X-API-Deprecated, Sunset, Retry-After");
  const HttpReply vast = exchange(server.public_port(), get_request("/v1/vast?d=x&exp=1&kid=1&sig=0", kOrigin));
  EXPECT_EQ(vast.status, 403);
  EXPECT_EQ(vast.header("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(vast.header_count("Access-Control-Allow-Origin"), 1u);
}

// navigator.sendBeacon() POSTs: a beacon is the tracking call it names, counted once
// with the GETs of the same token.
TEST(CrossOrigin, ABeaconPostIsATrackingCall) {
  StateDir state;
  ServerProcess server(standard_flags({state.flag(), "--events-flush=10ms"}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  const CurlReply decision = decide(server, "", 1);
  ASSERT_EQ(decision.status, 200) << decision.body;
  const std::vector<CreativeTokens> tokens = tokens_of(decision.body);
  ASSERT_FALSE(tokens.empty());
  const std::string beacon = "POST /v1/tracking?t=" + tokens[0].impression +
                             " HTTP/1.1\r\nHost: decisiond.test\r\n" + std::string(kOrigin) +
                             "Content-Type: text/plain;charset=UTF-8\r\nContent-Length: 0\r\n\r\n";
  const HttpReply first = exchange(server.public_port(), beacon);
  EXPECT_EQ(first.status, 204);
  EXPECT_EQ(first.header("Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(exchange(server.public_port(), beacon).status, 204);
  EXPECT_EQ(call_tracking(server, tokens[0].impression).status, 204);
  std::vector<LogLine> impressions;
  for (int attempt = 0; attempt < 200 && impressions.size() < 3; ++attempt) {
    usleep(10'000);
    impressions.clear();
    for (const LogLine& line : read_event_log(state.path())) {
      if (line.kind == "impression") impressions.push_back(line);
    }
  }
  ASSERT_EQ(impressions.size(), 3u);
  EXPECT_EQ(std::count_if(impressions.begin(), impressions.end(), [](const LogLine& l) { return !l.duplicate; }), 1);
}

TEST(CrossOrigin, TheAdminListenerAllowsNoOtherOrigin) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  const HttpReply health = exchange(server.admin_port(), get_request("/healthz", kOrigin));
  EXPECT_EQ(health.status, 200);
  EXPECT_FALSE(health.header("Access-Control-Allow-Origin"));
  const HttpReply explain_preflight = exchange(server.admin_port(), preflight("/admin/explain", "POST", "authorization"));
  EXPECT_EQ(explain_preflight.status, 405);
  EXPECT_FALSE(explain_preflight.header("Access-Control-Allow-Origin"));
  EXPECT_FALSE(explain_preflight.header("Access-Control-Allow-Methods"));
}

}  // namespace
}  // namespace integration
