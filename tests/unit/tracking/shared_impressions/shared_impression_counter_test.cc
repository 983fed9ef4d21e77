// Impressions counted in the shared cap store (tracking/shared_impressions/
// shared_impression_counter.h) against a scripted store that answers when the test says:
// when the reply may leave, what this core counts while the store heals, and how much of the
// calls kept impressions may take.
#include "tracking/shared_impressions/shared_impression_counter.h"

#include <deque>
#include <vector>

#include "caps/user_key.h"
#include "gtest/gtest.h"
#include "runtime/clock.h"
#include "tests/unit/runtime/scripted_file_io.h"

namespace tracking::shared_impressions {
namespace {

class ScriptedStore final : public caps::SharedCapStore {
 public:
  bool read(uint64_t, caps::CapReadDone&) override { return false; }
  bool count_impression(const caps::ImpressionStep& step, caps::ImpressionDone& done) override {
    calls.push_back({step.impression_id, &done});
    return true;
  }
  void add_pending(uint64_t, uint64_t, int64_t) override {}
  // Answers the oldest call.
  void answer(caps::ImpressionOutcome outcome) {
    Call call = calls.front();
    calls.pop_front();
    call.done->on_impression_counted(outcome);
  }
  struct Call {
    uint64_t impression_id;
    caps::ImpressionDone* done;
  };
  std::deque<Call> calls;
};

class NoCaps final : public impressions::AdCaps {
 public:
  std::span<const caps::CapRule> caps_of(uint64_t) const override { return {}; }
};

// Records, when told, how many lines the log had been given.
class ReplyWaiting final : public impressions::ImpressionLogged {
 public:
  explicit ReplyWaiting(const events::EventLog& log) : log_(log) {}
  void impression_logged() override { told_at_lines.push_back(log_.writer().lines_appended()); }
  std::vector<uint64_t> told_at_lines;

 private:
  const events::EventLog& log_;
};

class SharedImpressionCounterTest : public ::testing::Test {
 protected:
  SharedImpressionCounterTest() {
    events::EventLogSettings s;
    s.to_nowhere = true;
    log_ = std::make_unique<events::EventLog>(io_, timers_, clock_, s, 0);
    EXPECT_TRUE(log_->start().ok());
  }
  std::unique_ptr<SharedImpressionCounter> counter(uint32_t max_in_flight) {
    SharedImpressionSettings s;
    s.max_in_flight = max_in_flight;
    s.retry_interval_ms = 1000;
    return std::make_unique<SharedImpressionCounter>(0, store_, kept_, no_caps_, *log_, io_, timers_, s);
  }
  static impressions::ImpressionNotice notice(uint64_t id, const char* user) {
    impressions::ImpressionNotice n;
    n.time_ms = 1'790'000'000'000;
    n.token_id = id;
    n.ad_id = 2;
    n.expires_s = 1'790'003'600;
    n.has_user = true;
    n.user_id = user;
    return n;
  }
  uint32_t kept_of(const char* user) const {
    uint32_t n = 0;
    kept_.for_user(caps::user_key(user), [&](uint64_t ad, uint32_t count) { n += ad == 2 ? count : 0; });
    return n;
  }
  void retry_turn() { timers_.advance(now_ms_ += 1000); }
  // A loop turn's end: the log's lines written (to nowhere), then what waited for them.
  void loop_turn() { io_.turn(); }

  runtime::ManualClock clock_;
  runtime::TimerWheel timers_{0, 5};
  int64_t now_ms_ = 0;
  runtime::ScriptedFileIo io_;
  std::unique_ptr<events::EventLog> log_;
  ScriptedStore store_;
  caps::KeptImpressions kept_;
  NoCaps no_caps_;
};

TEST_F(SharedImpressionCounterTest, TheAttemptIsLoggedBeforeTheStoreIsAskedAndTheReplyWaitsForItsAnswer) {
  auto shared = counter(8);
  ReplyWaiting reply(*log_);
  EXPECT_FALSE(shared->count(notice(1, "u1"), &reply)) << "the reply waits for the store";
  EXPECT_EQ(log_->writer().lines_appended(), 1u) << "the attempt's unapplied line, written ahead";
  EXPECT_TRUE(store_.calls.empty()) << "not asked before that line is written";
  loop_turn();
  ASSERT_EQ(store_.calls.size(), 1u);
  EXPECT_TRUE(reply.told_at_lines.empty());
  store_.answer(caps::ImpressionOutcome::kCounted);
  EXPECT_EQ(reply.told_at_lines, std::vector<uint64_t>{2}) << "told after the answer's line, not before";
  EXPECT_EQ(shared->counters().counted.get(), 1u);
  EXPECT_EQ(shared->counters().unapplied.get(), 0u);
  EXPECT_EQ(kept_.users(), 0u);
}

TEST_F(SharedImpressionCounterTest, AtTheDeadlineTheReplyLeavesWithItsUnappliedLineAlone) {
  auto shared = counter(8);
  ReplyWaiting reply(*log_);
  ASSERT_FALSE(shared->count(notice(1, "u1"), &reply));
  loop_turn();
  store_.answer(caps::ImpressionOutcome::kUnapplied);
  EXPECT_EQ(reply.told_at_lines, std::vector<uint64_t>{1}) << "no second line: the first says unapplied";
  EXPECT_EQ(shared->counters().unapplied.get(), 1u);
  EXPECT_EQ(kept_of("u1"), 1u);
}

TEST_F(SharedImpressionCounterTest, WithNobodyToTellTheLineSaysUnappliedAtOnce) {
  auto shared = counter(8);
  EXPECT_TRUE(shared->count(notice(1, "u1"), nullptr));
  EXPECT_TRUE(store_.calls.empty());
  EXPECT_EQ(log_->writer().lines_appended(), 1u);
  EXPECT_EQ(kept_of("u1"), 1u);
}

TEST_F(SharedImpressionCounterTest, AnImpressionKeptForTheStoreCountsInThisCoresReadsUntilApplied) {
  auto shared = counter(8);
  ReplyWaiting reply(*log_);
  ASSERT_FALSE(shared->count(notice(1, "u1"), &reply));
  loop_turn();
  EXPECT_EQ(kept_of("u1"), 0u) << "on its way, not kept";
  store_.answer(caps::ImpressionOutcome::kUnapplied);
  EXPECT_EQ(kept_of("u1"), 1u);
  retry_turn();
  ASSERT_EQ(store_.calls.size(), 1u);
  store_.answer(caps::ImpressionOutcome::kUnapplied);  // the store still away
  EXPECT_EQ(kept_of("u1"), 1u) << "kept once, however many attempts";
  retry_turn();
  store_.answer(caps::ImpressionOutcome::kCounted);
  EXPECT_EQ(kept_of("u1"), 0u);
  EXPECT_EQ(kept_.users(), 0u);
}

TEST_F(SharedImpressionCounterTest, KeptOnesSentAgainTakeAtMostHalfTheCallsSoNewOnesStillGo) {
  auto shared = counter(4);
  for (uint64_t id = 1; id <= 10; ++id) ASSERT_TRUE(shared->count(notice(id, "u1"), nullptr));
  retry_turn();
  EXPECT_EQ(store_.calls.size(), 2u) << "half of 4 calls";
  ReplyWaiting reply(*log_);
  EXPECT_FALSE(shared->count(notice(11, "u2"), &reply)) << "a new impression finds a call";
  loop_turn();
  EXPECT_EQ(store_.calls.size(), 3u);
}

}  // namespace
}  // namespace tracking::shared_impressions
