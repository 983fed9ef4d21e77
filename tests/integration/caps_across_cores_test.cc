// Frequency caps with two cores (docs/caps.md, "Who owns what"): a user belongs to one
// core; decisions and impressions that land on the other core are handed over, and the cap
// holds exactly whichever core answers. At --max-cross-core-asks=0 nothing is handed over:
// what another core owns is shed with 503 10098 and Retry-After: 1, what the receiving core
// owns is served, and the refusals are counted in metrics.
#include <map>
#include <memory>
#include <set>

#include "gtest/gtest.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/metrics_scrape.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

class CapsAcrossCores : public ::testing::Test {
 protected:
  void start(std::vector<std::string> extra = {}) {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=50ms"};
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  std::vector<std::string> users_of_both_cores(const std::string& prefix, size_t per_core) {
    std::vector<std::string> users = users_owned_by(prefix + "a-", 0, 2, per_core);
    const std::vector<std::string> more = users_owned_by(prefix + "b-", 1, 2, per_core);
    users.insert(users.end(), more.begin(), more.end());
    return users;
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDir state_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(CapsAcrossCores, EachUserGetsExactlyItsCapWhicheverCoreAnswers) {
  start();
  const std::vector<std::string> users = users_of_both_cores("exact-", 4);
  for (const std::string& user : users) {
    SCOPED_TRACE(user);
    // Every decision and every impression call on its own new connection.
    int ad1 = 0, ad2 = 0;
    for (int round = 0; round < 8; ++round) {
      const CurlReply reply = decide(*server_, user, 3);
      ASSERT_EQ(reply.status, 200) << reply.body;
      for (const CreativeTokens& c : tokens_of(reply.body)) {
        if (c.ad_id == "ad_3") continue;
        ASSERT_EQ(call_tracking(*server_, c.impression).status, 204);
        (c.ad_id == "ad_1" ? ad1 : ad2)++;
      }
    }
    EXPECT_EQ(ad1, 2) << "ad_1 allows two an hour";
    EXPECT_EQ(ad2, 1) << "ad_2 allows one a day";
  }
  // Another user is untouched by all of them.
  const CurlReply fresh = decide(*server_, "exact-newcomer", 3);
  EXPECT_EQ(tokens_of(fresh.body).size(), 3u) << fresh.body;

  const std::vector<EventLine> lines = wait_for_event_lines(state_.path(), [&](const std::vector<EventLine>& l) {
    return count_kind(l, "impression") >= users.size() * 3;
  });
  std::map<std::string, int> counted;
  for (const EventLine& l : lines) {
    if (!l.user) continue;
    EXPECT_EQ(l.core.value_or(99), owner_core_of(*l.user, 2)) << "a user's lines come from its core: " << l.text;
    if (l.kind == "impression" && !l.duplicate.value_or(true)) counted[*l.user]++;
  }
  for (const std::string& user : users) EXPECT_EQ(counted[user], 3) << user;
  // Both cores received requests of users they do not own, and handed them over.
  const std::string page = scrape_metrics(*server_);
  EXPECT_GT(sum_samples(page, "decisiond_decision_forwarded_total", {}).value_or(0), 0.0) << page;
  EXPECT_GT(sum_samples(page, "decisiond_tracking_forwarded_total", {}).value_or(0), 0.0) << page;
}

TEST_F(CapsAcrossCores, AtZeroCrossCoreAsksOtherCoresUsersAreShedAndOwnUsersServed) {
  start({"--max-cross-core-asks=0"});
  const std::vector<std::string> users = users_of_both_cores("bound-", 10);
  int decisions_shed = 0, decisions_ok = 0, impressions_shed = 0, impressions_ok = 0;
  std::set<std::string> tokens;
  for (const std::string& user : users) {
    // Retried on new connections until one lands on the user's core: bounded.
    for (int attempt = 0; attempt < 40; ++attempt) {
      const CurlReply reply = decide(*server_, user, 3);
      if (reply.status == 503) {
        ++decisions_shed;
        EXPECT_TRUE(IsErrorEnvelope(reply.body, 10098));
        EXPECT_EQ(reply.header("Retry-After"), "1");
        continue;
      }
      ASSERT_EQ(reply.status, 200) << reply.body;
      ++decisions_ok;
      for (const CreativeTokens& c : tokens_of(reply.body)) {
        for (int call = 0; call < 40; ++call) {
          const CurlReply r = call_tracking(*server_, c.impression);
          if (r.status == 503) {
            ++impressions_shed;
            EXPECT_TRUE(IsErrorEnvelope(r.body, 10098));
            EXPECT_EQ(r.header("Retry-After"), "1");
            continue;
          }
          EXPECT_EQ(r.status, 204) << r.body;
          ++impressions_ok;
          tokens.insert(c.impression);
          break;
        }
      }
      break;
    }
  }
  EXPECT_EQ(decisions_ok, static_cast<int>(users.size())) << "every user was served by its own core in the end";
  EXPECT_GT(decisions_shed, 0) << "some decisions landed on the other core";
  EXPECT_GT(impressions_shed, 0) << "some impression calls landed on the other core";
  EXPECT_EQ(impressions_ok, static_cast<int>(tokens.size()));

  const std::string page = scrape_metrics(*server_);
  EXPECT_EQ(sum_samples(page, "decisiond_decision_cross_core_asks_refused_total", {}).value_or(-1), decisions_shed) << page;
  EXPECT_EQ(sum_samples(page, "decisiond_tracking_cross_core_asks_refused_total", {}).value_or(-1), impressions_shed) << page;
  // Every metric family about refused asks adds up to what this test was refused.
  double all_refused = 0;
  std::set<std::string> names;
  for (size_t at = page.find("asks_refused"); at != std::string::npos; at = page.find("asks_refused", at + 1)) {
    const size_t start = page.rfind('\n', at) + 1;
    if (page[start] == '#') continue;
    const size_t name_end = page.find_first_of("{ ", start);
    names.insert(page.substr(start, name_end - start));
  }
  for (const std::string& name : names) all_refused += sum_samples(page, name, {}).value_or(0);
  EXPECT_EQ(all_refused, decisions_shed + impressions_shed) << page;

  // Each served decision came from its user's core, and each impression was counted once
  // there: the shed calls were neither logged nor counted.
  const std::vector<EventLine> lines = wait_for_event_lines(state_.path(), [&](const std::vector<EventLine>& l) {
    return count_kind(l, "impression") >= tokens.size();
  });
  for (const EventLine& l : lines) {
    ASSERT_TRUE(l.user) << l.text;
    EXPECT_EQ(l.core.value_or(99), owner_core_of(*l.user, 2)) << l.text;
  }
  EXPECT_EQ(count_kind(lines, "decision"), users.size() * 3);
  EXPECT_EQ(count_impressions(lines, false), tokens.size());
  EXPECT_EQ(count_impressions(lines, true), 0u);
}

}  // namespace
}  // namespace integration
