// What the server acknowledged before its last flush survives the process (docs/events.md):
// after kill -9 or SIGTERM, with or without a snapshot written first (and with
// impressions after that snapshot), a restart on the same --state-dir knows every counted
// token (a repeat counts nothing new) and every user's caps.
#include <signal.h>

#include <memory>

#include "gtest/gtest.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"

namespace integration {
namespace {

struct Case {
  std::string name;
  int signal;
  bool snapshot;       // wait for a snapshot of every core taken after the impressions
  bool tail_after_it;  // then more impressions, logged after that snapshot
};

class Durable : public ::testing::TestWithParam<Case> {
 protected:
  void start(std::vector<std::string> extra = {}) {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=200ms"};
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  // Decides for user until ad_1 and ad_2 are capped, calling each of their impressions once
  // or twice; every token acknowledged is remembered.
  void use_up_caps(const std::string& user) {
    for (int round = 0; round < 8; ++round) {
      const CurlReply reply = decide(*server_, user, 3);
      ASSERT_EQ(reply.status, 200) << reply.body;
      for (const CreativeTokens& c : tokens_of(reply.body)) {
        if (c.ad_id == "ad_3") continue;  // uncapped
        const int calls = (round % 2 == 0) ? 2 : 1;
        for (int i = 0; i < calls; ++i) {
          ASSERT_EQ(call_tracking(*server_, c.impression).status, 204);
          ++acknowledged_;
        }
        counted_.push_back(c.impression);
      }
    }
  }
  // No ad_1 or ad_2 for user in several decisions on new connections.
  void expect_capped(const std::string& user) {
    for (int i = 0; i < 6; ++i) {
      const CurlReply reply = decide(*server_, user, 3);
      ASSERT_EQ(reply.status, 200) << reply.body;
      for (const CreativeTokens& c : tokens_of(reply.body)) {
        EXPECT_EQ(c.ad_id, "ad_3") << user << " is capped on ad_1 and ad_2";
      }
    }
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDir state_;
  std::unique_ptr<ServerProcess> server_;
  std::vector<std::string> counted_;
  size_t acknowledged_ = 0;
};

TEST_P(Durable, CountedTokensAndCapsSurviveTheRestart) {
  const Case& c = GetParam();
  start(c.snapshot ? std::vector<std::string>{"--snapshot-interval=1s"} : std::vector<std::string>{});
  std::vector<std::string> users = users_owned_by("durable-a-", 0, 2, 3);
  for (const std::string& u : users_owned_by("durable-b-", 1, 2, 3)) users.push_back(u);
  const std::vector<std::string> early(users.begin(), users.begin() + 4);
  const std::vector<std::string> late(users.begin() + 4, users.end());
  for (const std::string& user : c.tail_after_it ? early : users) {
    use_up_caps(user);
    if (HasFatalFailure()) return;
  }
  if (c.snapshot) {
    ASSERT_TRUE(wait_until_logged(*server_));  // counted by their owners, so in the caps a snapshot holds
    ASSERT_TRUE(wait_for_snapshots_since(*server_, snapshots_written(*server_)));
  }
  if (c.tail_after_it) {
    for (const std::string& user : late) {
      use_up_caps(user);
      if (HasFatalFailure()) return;
    }
  }
  ASSERT_EQ(counted_.size(), users.size() * 3) << "per user: ad_1 twice, ad_2 once (ad_3 is uncapped)";
  // Everything acknowledged is with the kernel, which keeps it whatever becomes of the process.
  ASSERT_TRUE(wait_until_logged(*server_));
  server_->send_signal(c.signal);
  ASSERT_TRUE(server_->wait_for_exit());
  const std::vector<EventLine> before = read_event_lines(state_.path());
  // Nothing acknowledged was lost, and nothing was counted twice.
  ASSERT_EQ(count_kind(before, "impression"), acknowledged_);

  start();
  for (const std::string& user : users) {
    expect_capped(user);
    if (HasFatalFailure()) return;
  }
  // Every counted token called again: answered, and all of it repeats.
  for (const std::string& token : counted_) ASSERT_EQ(call_tracking(*server_, token).status, 204);
  const std::vector<EventLine> after = wait_for_event_lines(state_.path(), [&](const std::vector<EventLine>& l) {
    return count_kind(l, "impression") >= acknowledged_ + counted_.size();
  });
  EXPECT_EQ(count_impressions(after, false), count_impressions(before, false)) << "no token counted a second time";
  EXPECT_EQ(count_impressions(after, true), count_impressions(before, true) + counted_.size());
  // A user never seen is not capped.
  const CurlReply fresh = decide(*server_, "durable-newcomer", 3);
  EXPECT_EQ(tokens_of(fresh.body).size(), 3u) << fresh.body;
}

INSTANTIATE_TEST_SUITE_P(
    Restarts, Durable,
    ::testing::Values(Case{"Kill9", SIGKILL, false, false}, Case{"Sigterm", SIGTERM, false, false},
                      Case{"Kill9AfterASnapshot", SIGKILL, true, false},
                      Case{"Kill9AfterASnapshotAndMore", SIGKILL, true, true},
                      Case{"SigtermAfterASnapshotAndMore", SIGTERM, true, true}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace integration
