// POST /admin/explain over the admin listener of the real binary (docs/explain.md): the
// explain agrees with what the server then serves, is answered by the core that owns the
// user whichever core received it, refuses what the decision endpoint refuses with the
// same status and code, needs the token when one is set, and counts nothing.
#include <signal.h>

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/json_body.h"
#include "tests/integration/metrics_text.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

constexpr char kVersion[] = "X-Decision-Version: 2025-11-01";

std::string request_for(const std::string& user) {
  return R"({"placements":[{"key":"home_top","count":3}],"user":{"id":")" + user + R"("}})";
}

// The request's header lines: `headers`, plus version 2025-11-01 and a JSON Content-Type
// unless `headers` give their own.
std::vector<std::string> header_lines(const std::vector<std::string>& headers) {
  std::vector<std::string> lines;
  bool typed = false;
  bool versioned = false;
  for (const std::string& line : headers) {
    typed = typed || line.starts_with("Content-Type:");
    versioned = versioned || line.starts_with("X-Decision-Version:");
  }
  if (!versioned) lines.push_back(kVersion);
  if (!typed) lines.push_back("Content-Type: application/json");
  lines.insert(lines.end(), headers.begin(), headers.end());
  return lines;
}

CurlReply explain(const ServerProcess& server, const std::string& body, const std::vector<std::string>& headers = {}) {
  CurlSession curl;
  return curl.post_with_headers(server.admin_url("/admin/explain"), body, header_lines(headers));
}

// The candidate of the first placement whose "ad" is ad; an invalid element when absent.
simdjson::dom::element candidate(const JsonBody& reply, const std::string& ad) {
  for (simdjson::dom::element c : reply.root()["data"]["placements"].at(0)["candidates"].get_array()) {
    if (string_member(c, "ad") == ad) return c;
  }
  ADD_FAILURE() << "no candidate " << ad;
  return {};
}

class Explain : public ::testing::Test {
 protected:
  TempFile catalog_{"catalog.json", capped_catalog_json()};
};

// Ad 2 is capped at one impression a day: once its impression is counted, the explain names
// the cap, with the count, and the next decision indeed serves ads 1 and 3 only. For a user
// of each core, so one of the two explains is handed to the owner core by message.
TEST_F(Explain, ACountedImpressionShowsAsTheCapThatExcludesTheAdOnTheOwnersCore) {
  ServerProcess server(standard_flags({"--catalog=" + catalog_.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error() << server.stderr_text();
  for (uint32_t core = 0; core < 2; ++core) {
    SCOPED_TRACE("user of core " + std::to_string(core));
    const std::string user = users_owned_by("explained-", core, 2, 1).front();

    const CurlReply before = explain(server, request_for(user));
    ASSERT_EQ(before.status, 200) << before.body;
    const JsonBody first(before.body);
    ASSERT_TRUE(first.ok()) << first.error();
    EXPECT_EQ(string_member(candidate(first, "ad_2"), "outcome"), "served") << before.body;
    EXPECT_EQ(int_member(first.root()["data"]["request"]["cores"], "userOwner"), core);
    EXPECT_EQ(int_member(first.root()["data"]["request"]["cores"], "decided"), core);

    const CurlReply decision = decide(server, user, 3);
    ASSERT_EQ(decision.status, 200) << decision.body;
    bool counted = false;
    for (const CreativeTokens& creative : tokens_of(decision.body)) {
      if (creative.ad_id != "ad_2") continue;
      EXPECT_EQ(call_tracking(server, creative.impression).status, 204);
      counted = true;
    }
    ASSERT_TRUE(counted) << "three asked of three ads: ad 2 is served " << decision.body;

    const CurlReply after = explain(server, request_for(user));
    ASSERT_EQ(after.status, 200) << after.body;
    const JsonBody second(after.body);
    ASSERT_TRUE(second.ok()) << second.error();
    const simdjson::dom::element capped = candidate(second, "ad_2");
    EXPECT_EQ(string_member(capped, "outcome"), "excluded") << after.body;
    EXPECT_EQ(string_member(capped["rule"], "name"), "frequency_cap") << after.body;
    EXPECT_EQ(int_member(capped["rule"]["caps"].at(0), "counted"), 1) << after.body;
    EXPECT_EQ(string_member(candidate(second, "ad_1"), "outcome"), "served");
    EXPECT_EQ(string_member(candidate(second, "ad_3"), "outcome"), "served");

    std::vector<std::string> served;
    for (const CreativeTokens& creative : tokens_of(decide(server, user, 3).body)) served.push_back(creative.ad_id);
    EXPECT_EQ(served.size(), 2u);
    for (const std::string& ad : served) EXPECT_NE(ad, "ad_2") << "the explain said ad 2 is capped";
  }
}

// An explain seals no token, writes no event and counts no decision: the impression count
// and the event log are what the two decisions above would leave, not more.
TEST_F(Explain, AnExplainServesNothingCountsNothingAndLogsNothing) {
  StateDir state;
  ServerProcess server(standard_flags({"--catalog=" + catalog_.path(), state.flag()}));
  ASSERT_TRUE(server.serving()) << server.start_error() << server.stderr_text();
  for (int i = 0; i < 5; ++i) {
    const CurlReply reply = explain(server, request_for("quiet-user"));
    ASSERT_EQ(reply.status, 200) << reply.body;
    EXPECT_EQ(reply.body.find("/v1/tracking"), std::string::npos) << "an explain mints no tracking URL";
  }
  CurlSession curl;
  const CurlReply metrics = curl.get(server.admin_url("/metrics"));
  ASSERT_EQ(metrics.status, 200);
  // Every core lists its counter, at 0 until it serves a decision.
  EXPECT_EQ(sum_samples(metrics.body, "decisiond_decisions_total", {}), 0.0) << metrics.body;
  EXPECT_EQ(sum_samples(metrics.body, "decisiond_impressions_counted_total", {}), 0.0);
  server.send_signal(SIGTERM);
  ASSERT_TRUE(server.wait_for_exit());
  EXPECT_TRUE(read_event_log(state.path()).empty()) << "an explain writes no event";
}

// Replaying a request means changing its URL, nothing else: what the decision endpoint
// refuses, the explain refuses with the same status and code.
TEST_F(Explain, WhatTheDecisionEndpointRefusesIsRefusedAlike) {
  ServerProcess server(standard_flags({"--catalog=" + catalog_.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error() << server.stderr_text();
  struct Case {
    const char* why;
    std::string body;
    std::vector<std::string> headers;
  };
  const std::vector<Case> cases = {
      {"no placements", R"({"user":{"id":"u"}})", {}},
      {"count out of range", R"({"placements":[{"key":"home_top","count":11}]})", {}},
      {"not JSON", "{", {}},
      {"a version that does not exist", request_for("u"), {"X-Decision-Version: 1999-01-01"}},
      {"not JSON by its media type", request_for("u"), {"Content-Type: text/plain"}},
      {"longer than the public listener's body limit", R"({"placements":[{"key":")" + std::string(70000, 'k') + R"("}]})", {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    std::vector<std::string> headers = c.headers;
    headers.push_back("Accept-Language: en");
    CurlSession curl;
    const CurlReply decided = curl.post_with_headers(server.public_url("/v1/decision"), c.body, header_lines(headers));
    const CurlReply explained = explain(server, c.body, headers);
    EXPECT_GE(decided.status, 400);
    EXPECT_EQ(explained.status, decided.status) << explained.body;
    EXPECT_EQ(error_code_of(explained.body), error_code_of(decided.body)) << explained.body;
  }
}

TEST_F(Explain, WithAnAdminTokenTheExplainNeedsIt) {
  ServerProcess server(standard_flags({"--catalog=" + catalog_.path(), "--admin-token=explain-secret"}));
  ASSERT_TRUE(server.serving()) << server.start_error() << server.stderr_text();
  const CurlReply without = explain(server, request_for("u"));
  EXPECT_EQ(without.status, 401);
  EXPECT_EQ(error_code_of(without.body), 10060);
  const CurlReply wrong = explain(server, request_for("u"), {"Authorization: Bearer not-it"});
  EXPECT_EQ(wrong.status, 401);
  const CurlReply with = explain(server, request_for("u"), {"Authorization: Bearer explain-secret"});
  EXPECT_EQ(with.status, 200) << with.body;
}

}  // namespace
}  // namespace integration
