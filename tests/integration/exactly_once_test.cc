// Exactly-once impressions (docs/tracking.md, docs/caps.md, docs/events.md): an impression
// URL called N times answers 204 every time, is logged once as "duplicate":false and N-1
// times as "duplicate":true by the core that owns its user, and counts once against caps.
// Calls go on fresh connections, so either core receives them.
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <set>

#include "gtest/gtest.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

class ExactlyOnce : public ::testing::Test {
 protected:
  void start() {
    server_ = std::make_unique<ServerProcess>(
        standard_flags({"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=50ms"}));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  std::map<std::string, CreativeTokens> decision_for(std::string_view user) {
    const CurlReply reply = decide(*server_, user, 3);
    EXPECT_EQ(reply.status, 200) << reply.body;
    std::map<std::string, CreativeTokens> out;
    for (const CreativeTokens& c : tokens_of(reply.body)) out[c.ad_id] = c;
    return out;
  }
  // The request id sealed in a token, as the log spells it.
  std::string request_of(const std::string& token) {
    std::string storage;
    tracking::TrackingEvent event;
    EXPECT_TRUE(state_.Open(token, storage, event));
    return request_id_hex(event.request_id);
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDirWithKeys state_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(ExactlyOnce, RepeatedImpressionCountsOnceTowardsTheCap) {
  start();
  // ad_1 allows two impressions an hour. One token called six times is one impression.
  const std::string first = decision_for("once-user")["ad_1"].impression;
  ASSERT_FALSE(first.empty());
  for (int i = 0; i < 6; ++i) EXPECT_EQ(call_tracking(*server_, first).status, 204) << "call " << i;
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(decision_for("once-user").count("ad_1"), 1u) << "one impression of two: still served (decision " << i << ")";
  }
  // A second token is the second impression: now the cap is reached.
  const std::string second = decision_for("once-user")["ad_1"].impression;
  ASSERT_FALSE(second.empty());
  EXPECT_EQ(call_tracking(*server_, second).status, 204);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(decision_for("once-user").count("ad_1"), 0u) << "decision " << i;
  // Repeats of a capped ad's token still answer 204 and still count nothing.
  EXPECT_EQ(call_tracking(*server_, second).status, 204);
  const std::vector<EventLine> lines = wait_for_event_lines(state_.path(), [](const std::vector<EventLine>& l) {
    return count_kind(l, "impression") >= 8;
  });
  EXPECT_EQ(count_impressions(lines, false), 2u);
  EXPECT_EQ(count_impressions(lines, true), 6u);
}

TEST_F(ExactlyOnce, EveryTokenIsCountedOnceByItsUsersCoreWhicheverCoreReceivesIt) {
  start();
  std::vector<std::string> users = users_owned_by("eo-a-", 0, 2, 5);
  const std::vector<std::string> of_core_1 = users_owned_by("eo-b-", 1, 2, 5);
  users.insert(users.end(), of_core_1.begin(), of_core_1.end());
  struct Call {
    std::string user, ad, token;
  };
  std::vector<Call> calls;
  for (const std::string& user : users) {
    for (const auto& [ad, c] : decision_for(user)) {
      for (int i = 0; i < 3; ++i) calls.push_back({user, ad, c.impression});
    }
  }
  ASSERT_EQ(calls.size(), users.size() * 9);
  std::mt19937 random(7);
  std::shuffle(calls.begin(), calls.end(), random);
  for (const Call& call : calls) ASSERT_EQ(call_tracking(*server_, call.token).status, 204);

  const std::vector<EventLine> lines = wait_for_event_lines(state_.path(), [&](const std::vector<EventLine>& l) {
    return count_kind(l, "impression") >= calls.size();
  });
  std::map<std::pair<std::string, uint64_t>, std::pair<int, int>> by_user_ad;  // first, repeats
  for (const EventLine& l : lines) {
    if (l.kind != "impression") continue;
    ASSERT_TRUE(l.user && l.ad && l.core && l.duplicate) << l.text;
    EXPECT_EQ(*l.core, owner_core_of(*l.user, 2)) << "counted by the user's core: " << l.text;
    EXPECT_EQ(l.file_core, *l.core) << l.text;
    auto& [first, repeats] = by_user_ad[{*l.user, *l.ad}];
    (*l.duplicate ? repeats : first)++;
  }
  EXPECT_EQ(count_kind(lines, "impression"), calls.size());
  EXPECT_EQ(by_user_ad.size(), users.size() * 3);
  for (const auto& [key, counts] : by_user_ad) {
    EXPECT_EQ(counts.first, 1) << key.first << " ad " << key.second;
    EXPECT_EQ(counts.second, 2) << key.first << " ad " << key.second;
  }
}

TEST_F(ExactlyOnce, ImpressionsWithoutAUserCountOnceToo) {
  start();
  std::map<std::string, int> calls_by_request_ad;
  for (int d = 0; d < 4; ++d) {
    for (const auto& [ad, c] : decision_for("")) {
      for (int i = 0; i < 4; ++i) ASSERT_EQ(call_tracking(*server_, c.impression).status, 204);
      calls_by_request_ad[request_of(c.impression) + "/" + ad.substr(3)] += 4;
    }
  }
  const std::vector<EventLine> lines = wait_for_event_lines(state_.path(), [](const std::vector<EventLine>& l) {
    return count_kind(l, "impression") >= 48;
  });
  std::map<std::string, std::pair<int, int>> seen;
  for (const EventLine& l : lines) {
    if (l.kind != "impression") continue;
    EXPECT_FALSE(l.user) << l.text;
    auto& [first, repeats] = seen[l.request.value_or("?") + "/" + std::to_string(l.ad.value_or(0))];
    (l.duplicate.value_or(false) ? repeats : first)++;
  }
  ASSERT_EQ(seen.size(), calls_by_request_ad.size());
  for (const auto& [key, n] : calls_by_request_ad) {
    EXPECT_EQ(seen[key].first, 1) << key;
    EXPECT_EQ(seen[key].second, n - 1) << key;
  }
}

TEST_F(ExactlyOnce, LogLinesCarryTheDocumentedMembers) {
  start();
  const int64_t before_ms = now_ms();
  std::map<std::string, CreativeTokens> d = decision_for("shape-user");
  ASSERT_EQ(d.size(), 3u);
  const std::string request = request_of(d["ad_1"].impression);
  ASSERT_TRUE(is_hex(request, 32)) << request;
  EXPECT_EQ(call_tracking(*server_, d["ad_1"].impression).status, 204);
  EXPECT_EQ(call_tracking(*server_, d["ad_1"].impression).status, 204);
  EXPECT_EQ(call_tracking(*server_, d["ad_1"].click).status, 302);
  const std::vector<EventLine> lines = wait_for_event_lines(state_.path(), [](const std::vector<EventLine>& l) {
    return count_kind(l, "impression") >= 2 && count_kind(l, "click") >= 1;
  });
  const int64_t after_ms = now_ms();
  const uint32_t owner = owner_core_of("shape-user", 2);
  std::map<uint32_t, uint64_t> last_seq;
  std::set<uint64_t> decided_ads;
  std::string token_id;
  for (const EventLine& l : lines) {
    SCOPED_TRACE(l.text);
    ASSERT_TRUE(l.seq && l.time_ms && l.ad && l.creative && l.placement && l.request && l.core);
    if (last_seq.count(l.file_core)) {
      EXPECT_GT(*l.seq, last_seq[l.file_core]) << "seq increases within a core";
    }
    last_seq[l.file_core] = *l.seq;
    EXPECT_GE(*l.time_ms, before_ms - 1000);
    EXPECT_LE(*l.time_ms, after_ms + 1000);
    EXPECT_EQ(*l.request, request);
    EXPECT_EQ(l.user.value_or("<none>"), "shape-user");
    EXPECT_EQ(*l.placement, 7u);
    EXPECT_EQ(*l.creative, *l.ad * 10);
    EXPECT_EQ(*l.core, l.file_core);
    if (l.kind == "decision") {
      decided_ads.insert(*l.ad);
      EXPECT_EQ(*l.core, owner) << "the user's core decided";
      EXPECT_FALSE(l.duplicate) << "decision lines are not tracking lines";
      continue;
    }
    ASSERT_TRUE(l.duplicate && l.issued_s && l.expires_s);
    EXPECT_EQ(*l.ad, 1u);
    EXPECT_EQ(*l.expires_s - *l.issued_s, 3600) << "the default --tracking-ttl";
    EXPECT_GE(*l.issued_s, before_ms / 1000 - 1);
    EXPECT_LE(*l.issued_s, after_ms / 1000 + 1);
    if (l.kind == "impression") {
      EXPECT_EQ(*l.core, owner) << "counted by the user's core";
      ASSERT_TRUE(l.token);
      EXPECT_TRUE(is_hex(*l.token, 16)) << *l.token;
      if (token_id.empty()) token_id = *l.token;
      EXPECT_EQ(*l.token, token_id) << "one token, one id";
    } else {
      EXPECT_EQ(l.kind, "click");
      EXPECT_FALSE(*l.duplicate);
    }
  }
  EXPECT_EQ(decided_ads, (std::set<uint64_t>{1, 2, 3})) << "one decision line per creative served";
  EXPECT_EQ(count_kind(lines, "decision"), 3u);
  EXPECT_EQ(count_impressions(lines, false), 1u);
  EXPECT_EQ(count_impressions(lines, true), 1u);
}

}  // namespace
}  // namespace integration
