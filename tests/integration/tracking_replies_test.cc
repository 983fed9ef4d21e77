// The replies of GET /v1/tracking as a client sees them (docs/tracking.md, docs/errors.md):
// every accepted kind answers with Cache-Control: no-store and the documented status,
// refusals carry the error envelope member by member, and HEAD answers exactly as GET does
// without the body.
#include <cctype>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "gtest/gtest.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/wall_clock.h"

namespace integration {
namespace {

class TrackingReplies : public ::testing::Test {
 protected:
  void start(std::vector<std::string> extra = {}) {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=50ms"};
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  // The three creatives of one decision, by ad id.
  std::map<std::string, CreativeTokens> decision_for(std::string_view user = "") {
    const CurlReply reply = decide(*server_, user, 3);
    EXPECT_EQ(reply.status, 200) << reply.body;
    std::map<std::string, CreativeTokens> out;
    for (const CreativeTokens& c : tokens_of(reply.body)) out[c.ad_id] = c;
    EXPECT_EQ(out.size(), 3u) << reply.body;
    return out;
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDirWithKeys state_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(TrackingReplies, EveryAcceptedKindIsNoStoreWithItsStatus) {
  start();
  std::map<std::string, CreativeTokens> d = decision_for("reply-user");
  TrackingClient client(*server_);
  struct Call {
    std::string what, token;
    int status;
    std::string location;
  };
  for (const Call& call : std::vector<Call>{
           {"impression", d["ad_1"].impression, 204, ""},
           {"repeated impression", d["ad_1"].impression, 204, ""},
           {"click with clickUrl", d["ad_1"].click, 302, "https://one.example.com/landing?a=1&b=2"},
           {"click again", d["ad_1"].click, 302, "https://one.example.com/landing?a=1&b=2"},
           {"click without clickUrl", d["ad_2"].click, 204, ""},
           {"custom event", d["ad_3"].custom["add_to_cart"], 204, ""},
       }) {
    const std::optional<HttpReply> reply = client.get(call.token);
    ASSERT_TRUE(reply) << call.what << ": " << client.last_error();
    EXPECT_EQ(reply->status, call.status) << call.what << ": " << reply->body;
    EXPECT_EQ(reply->header("Cache-Control").value_or("<none>"), "no-store") << call.what;
    EXPECT_EQ(reply->header("Location").value_or(""), call.location) << call.what;
    EXPECT_TRUE(reply->body.empty()) << call.what << ": " << reply->body;
    EXPECT_EQ(reply->header("Content-Length").value_or("0"), "0") << call.what;
  }
  const std::vector<EventLine> lines = wait_for_event_lines(state_.path(), [](const std::vector<EventLine>& l) {
    return count_kind(l, "impression") >= 2 && count_kind(l, "click") >= 3 && count_kind(l, "custom") >= 1;
  });
  EXPECT_EQ(count_impressions(lines, false), 1u);
  EXPECT_EQ(count_impressions(lines, true), 1u);
  EXPECT_EQ(count_kind(lines, "click"), 3u) << "every accepted click is logged, 302 or 204";
  EXPECT_EQ(count_kind(lines, "custom"), 1u);
}

TEST_F(TrackingReplies, RefusalsCarryTheErrorEnvelope) {
  start({"--tracking-ttl=1s"});
  const std::string expiring = decision_for()["ad_3"].impression;
  sleep_until_sealed_ones_expire(1);  // --tracking-ttl has no shorter setting: tokens count whole seconds
  TrackingClient client(*server_);
  struct Call {
    std::string what, target, headers;
    int status, code;
  };
  for (const Call& call : std::vector<Call>{
           {"garbage token", "/v1/tracking?t=garbage", "", 400, 10050},
           {"missing t", "/v1/tracking", "", 400, 10050},
           {"expired token", "/v1/tracking?t=" + expiring, "", 410, 10051},
           {"bad version", "/v1/tracking?t=" + expiring, "X-Tracking-Version: latest\r\n", 400, 10042},
       }) {
    const std::optional<HttpReply> reply = client.request("GET", call.target, call.headers);
    ASSERT_TRUE(reply) << call.what << ": " << client.last_error();
    EXPECT_EQ(reply->status, call.status) << call.what;
    EXPECT_TRUE(IsErrorEnvelope(reply->body, call.code)) << call.what;
    EXPECT_NE(reply->header("Content-Type").value_or("").find("application/json"), std::string::npos) << call.what;
  }
}

TEST_F(TrackingReplies, HeadAnswersAsGetWithoutTheBody) {
  start();
  std::map<std::string, CreativeTokens> d = decision_for("head-user");
  TrackingClient client(*server_);
  // Headers whose values depend on the moment or the connection, not on the method.
  const std::set<std::string> varying = {"date", "content-length", "connection", "keep-alive"};
  const auto comparable = [&](const HttpReply& reply) {
    std::multiset<std::pair<std::string, std::string>> out;
    for (const auto& [name, value] : reply.headers) {
      std::string lower = name;
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (!varying.count(lower)) out.emplace(lower, value);
    }
    return out;
  };
  for (const auto& [what, token, headers] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"impression", d["ad_1"].impression, ""},
           {"click with clickUrl", d["ad_1"].click, ""},
           {"click without clickUrl", d["ad_2"].click, ""},
           {"custom event", d["ad_3"].custom["add_to_cart"], "X-Tracking-Version: 2025-11-01\r\n"},
           {"garbage token", "garbage", ""},
           {"bad version", d["ad_3"].impression, "X-Tracking-Version: latest\r\n"},
       }) {
    const std::optional<HttpReply> head = client.head(token, headers);
    ASSERT_TRUE(head) << what << ": " << client.last_error();
    const std::optional<HttpReply> get = client.get(token, headers);
    ASSERT_TRUE(get) << what << ": " << client.last_error();
    EXPECT_EQ(head->status, get->status) << what;
    EXPECT_TRUE(head->body.empty()) << what;
    EXPECT_EQ(comparable(*head), comparable(*get)) << what << "\nHEAD:\n" << head->raw << "\nGET:\n" << get->raw;
    // A HEAD reply announces the length the GET body has (RFC 9110 section 9.3.2), or none.
    if (const auto length = head->header("Content-Length")) {
      EXPECT_EQ(*length, std::to_string(get->body.size())) << what;
    }
  }
}

}  // namespace
}  // namespace integration
