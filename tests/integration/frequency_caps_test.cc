// Frequency caps and exactly-once impressions over HTTP with two cores (docs/caps.md,
// docs/tracking.md): a user's impressions count once, against the user's caps, whichever
// core each request lands on; and all of it survives restarts, clean or kill -9.
#include <signal.h>

#include <memory>
#include <set>

#include "gtest/gtest.h"
#include "tests/integration/json_body.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

class FrequencyCaps : public ::testing::Test {
 protected:
  void start(std::vector<std::string> extra = {}) {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=100ms"};
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  // The ads served to user in `times` decisions, each on a new connection.
  std::multiset<std::string> served(std::string_view user, int times, std::string_view extra_json = "") {
    std::multiset<std::string> ads;
    for (int i = 0; i < times; ++i) {
      const CurlReply reply = decide(*server_, user, 3, true, extra_json);
      EXPECT_EQ(reply.status, 200) << reply.body;
      for (const CreativeTokens& c : tokens_of(reply.body)) ads.insert(c.ad_id);
    }
    return ads;
  }
  // Decides for user and calls the impression URL of ad (when served); whether it was.
  bool impress(std::string_view user, const std::string& ad, std::string_view extra_json = "") {
    const CurlReply reply = decide(*server_, user, 3, true, extra_json);
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id != ad) continue;
      EXPECT_EQ(call_tracking(*server_, c.impression).status, 204);
      return true;
    }
    return false;
  }
  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDir state_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(FrequencyCaps, CappedAdStopsAfterItsImpressionsWhicheverCoreAnswers) {
  start();
  int shown = 0;
  for (int i = 0; i < 20 && shown < 2; ++i) shown += impress("capped-user", "ad_1") ? 1 : 0;
  ASSERT_EQ(shown, 2);
  // 20 decisions on new connections: both cores answer some, none serves ad_1 any more.
  EXPECT_EQ(served("capped-user", 20).count("ad_1"), 0u);
  // Other users are not capped by this one.
  EXPECT_GT(served("someone-else", 3).count("ad_1"), 0u);
  // Both cores took part: decisions for the user reached its owner from the other core.
  const std::string page = scrape_metrics(*server_);
  EXPECT_GT(sum_samples(page, "decisiond_decision_forwarded_total", {}).value_or(0), 0.0) << page;
}

TEST_F(FrequencyCaps, ImpressionOfACallRepeatedCountsOnce) {
  start();
  const CurlReply reply = decide(*server_, "repeat-user", 3);
  std::string token;
  for (const CreativeTokens& c : tokens_of(reply.body)) {
    if (c.ad_id == "ad_2") token = c.impression;
  }
  ASSERT_FALSE(token.empty()) << reply.body;
  for (int i = 0; i < 6; ++i) EXPECT_EQ(call_tracking(*server_, token).status, 204);
  ASSERT_TRUE(wait_until_logged(*server_));
  int first = 0, repeats = 0;
  for (const LogLine& l : read_event_log(state_.path())) {
    if (l.kind != "impression") continue;
    (l.duplicate ? repeats : first)++;
  }
  EXPECT_EQ(first, 1);
  EXPECT_EQ(repeats, 5);
  // ad_2 allows one a day: the repeats did not use up anything more, and the one did.
  EXPECT_EQ(served("repeat-user", 6).count("ad_2"), 0u);
}

TEST_F(FrequencyCaps, WithoutAUserIdNothingIsCapped) {
  start();
  for (int i = 0; i < 4; ++i) impress("", "ad_2");
  EXPECT_GT(served("", 10).count("ad_2"), 0u);
}

TEST_F(FrequencyCaps, GdprUserWithoutConsentIsNeitherCappedNorNamed) {
  start();
  // The United Kingdom (2635167) is GDPR territory; consent refused.
  const std::string body =
      R"({"placements":[{"key":"home_top","count":3,"targeting":{"geo":[2635167]}}],)"
      R"("user":{"id":"gdpr-user","consent":{"gdpr":false}}})";
  int shown = 0;
  for (int i = 0; i < 8; ++i) {
    CurlSession session;
    const CurlReply reply = session.post(server_->public_url("/v1/decision"), body);
    ASSERT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id != "ad_2") continue;
      EXPECT_EQ(call_tracking(*server_, c.impression).status, 204);
      ++shown;
    }
  }
  EXPECT_GT(shown, 1) << "ad_2 allows one a day: served again, so the user was not capped";
  ASSERT_TRUE(wait_until_logged(*server_));
  for (const LogLine& l : read_event_log(state_.path())) EXPECT_FALSE(l.has_user) << l.kind;
}

TEST_F(FrequencyCaps, AtTheBoundOfCrossCoreAsksRequestsAreShedWith503) {
  start({"--max-cross-core-asks=0"});
  int ok = 0, shed = 0;
  for (int u = 0; u < 40; ++u) {
    const CurlReply reply = decide(*server_, "bound-user-" + std::to_string(u), 1);
    if (reply.status == 200) {
      ++ok;
    } else {
      EXPECT_EQ(reply.status, 503) << reply.body;
      EXPECT_NE(reply.body.find("10098"), std::string::npos);
      EXPECT_EQ(reply.header("Retry-After"), "1");
      ++shed;
    }
  }
  EXPECT_GT(ok, 0);
  EXPECT_GT(shed, 0);
  const std::string page = scrape_metrics(*server_);
  EXPECT_EQ(sum_samples(page, "decisiond_decision_cross_core_asks_refused_total", {}).value_or(-1), shed) << page;
}

// Durability: what was acknowledged before the last flush survives the process.
class Durability : public FrequencyCaps, public ::testing::WithParamInterface<int> {};

TEST_P(Durability, CapsAndCountedTokensSurviveARestart) {
  const int signal_to_stop = GetParam();
  start({"--snapshot-interval=1s"});
  std::vector<std::string> counted;
  int shown = 0;
  for (int i = 0; i < 20 && shown < 2; ++i) {
    const CurlReply reply = decide(*server_, "durable-user", 3);
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id != "ad_1") continue;
      ASSERT_EQ(call_tracking(*server_, c.impression).status, 204);
      counted.push_back(c.impression);
      ++shown;
    }
  }
  ASSERT_EQ(shown, 2);
  // What was acknowledged is with the kernel, which keeps it whatever becomes of the process.
  ASSERT_TRUE(wait_until_logged(*server_));
  server_->send_signal(signal_to_stop);
  ASSERT_TRUE(server_->wait_for_exit());
  start();
  EXPECT_EQ(served("durable-user", 12).count("ad_1"), 0u) << "the cap held across the restart";
  for (const std::string& token : counted) EXPECT_EQ(call_tracking(*server_, token).status, 204);
  ASSERT_TRUE(wait_until_logged(*server_));
  int first = 0, repeats = 0;
  for (const LogLine& l : read_event_log(state_.path())) {
    if (l.kind == "impression") (l.duplicate ? repeats : first)++;
  }
  EXPECT_EQ(first, 2) << "nothing counted twice across the restart";
  EXPECT_EQ(repeats, 2);
}

TEST_P(Durability, StateSurvivesAChangeOfCoreCount) {
  const int signal_to_stop = GetParam();
  start({"--snapshot-interval=200ms"});
  int shown = 0;
  for (int i = 0; i < 20 && shown < 2; ++i) shown += impress("moving-user", "ad_1") ? 1 : 0;
  ASSERT_EQ(shown, 2);
  // The impressions logged, then a snapshot of every core: the restarts load the snapshots
  // and replay the log after their point.
  ASSERT_TRUE(wait_until_logged(*server_));
  ASSERT_TRUE(wait_for_snapshots_since(*server_, snapshots_written(*server_)));
  server_->send_signal(signal_to_stop);
  ASSERT_TRUE(server_->wait_for_exit());
  start({"--cores=1"});
  EXPECT_EQ(served("moving-user", 6).count("ad_1"), 0u);
  server_->send_signal(SIGTERM);
  ASSERT_TRUE(server_->wait_for_exit());
  start({"--cores=2"});
  EXPECT_EQ(served("moving-user", 6).count("ad_1"), 0u);
}

INSTANTIATE_TEST_SUITE_P(CleanOrKilled, Durability, ::testing::Values(SIGTERM, SIGKILL),
                         [](const auto& info) { return info.param == SIGKILL ? std::string("Kill9") : std::string("Sigterm"); });

}  // namespace
}  // namespace integration
