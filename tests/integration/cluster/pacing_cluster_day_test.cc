// A simulated day of pacing through three nodes that share their goal in a real Redis
// Cluster (docs/pacing.md, "What is promised"): the simulation of
// tests/unit/decision/pacing/ with its nodes' coordinating cores leasing from the ledger
// function on the goal's primary, as decisiond's do. The nodes together meet the goal, and
// the total stays within the stated bound.
#include <hiredis/hiredis.h>

#include <cstdio>
#include <deque>
#include <optional>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "decision/pacing/redis_ledger/pacing_library.h"
#include "decision/pacing/redis_ledger/redis_goal_ledger.h"
#include "gtest/gtest.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"
#include "tests/unit/decision/pacing/pacing_simulation.h"

namespace integration {
namespace {

using decision::pacing::GoalLedger;
using decision::pacing::LeaseDone;
using decision::pacing::LeaseGrant;
using decision::pacing::LeaseRequest;
using decision::pacing::testing::SimulationResult;
using decision::pacing::testing::simulate_day;

constexpr uint64_t kDayGoal = 24'000;
// The simulated flight is a day of 2025 on the injected clock, and Redis expires keys by its
// own: the goal's hash is kept until 2100 instead of a week after that flight.
constexpr char kKeepUntil[] = "4102444800";

// The ledger of decision/pacing/redis_ledger/ called over one blocking hiredis connection to
// the goal's primary; its answers are held and delivered when the simulation carries its
// messages (a ledger never answers inside lease()).
class BlockingLedger final : public GoalLedger {
 public:
  explicit BlockingLedger(uint16_t port) : context_(redisConnect("127.0.0.1", port)) {}
  ~BlockingLedger() override {
    if (context_ != nullptr) redisFree(context_);
  }
  bool ok() const { return context_ != nullptr && context_->err == 0; }

  bool lease(const LeaseRequest& r, LeaseDone& done) override {
    const std::string key = decision::pacing::redis_ledger::RedisGoalLedger::key_of(r.ad_id);
    const std::string args[] = {"FCALL", "decisiond_pace", "1", key, absl::StrCat(r.slice_id), absl::StrCat(r.interval_s),
                                absl::StrCat(r.delivered_delta), absl::StrCat(r.settle_slice_id),
                                absl::StrCat(r.settle_tokens), absl::StrCat(r.settle_served), absl::StrCat(r.target),
                                absl::StrCat(r.want), kKeepUntil};
    const char* argv[std::size(args)];
    size_t lengths[std::size(args)];
    for (size_t i = 0; i < std::size(args); ++i) {
      argv[i] = args[i].data();
      lengths[i] = args[i].size();
    }
    auto* reply = static_cast<redisReply*>(redisCommandArgv(context_, static_cast<int>(std::size(args)), argv, lengths));
    std::optional<LeaseGrant> granted;
    if (reply != nullptr && reply->type == REDIS_REPLY_ARRAY && reply->elements == 2) {
      granted = LeaseGrant{static_cast<uint64_t>(reply->element[0]->integer),
                           static_cast<uint64_t>(reply->element[1]->integer)};
      ++leases;
    } else {
      ADD_FAILURE() << "FCALL decisiond_pace: " << (reply != nullptr && reply->str != nullptr ? reply->str : "no reply");
    }
    if (reply != nullptr) freeReplyObject(reply);
    answers_.emplace_back(r, granted, &done);
    return true;
  }

  void deliver() {
    while (!answers_.empty()) {
      auto [request, granted, done] = answers_.front();
      answers_.pop_front();
      done->on_lease(request, granted ? &*granted : nullptr);
    }
  }

  uint64_t leases = 0;

 private:
  redisContext* context_;
  std::deque<std::tuple<LeaseRequest, std::optional<LeaseGrant>, LeaseDone*>> answers_;
};

class PacingClusterDay : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(redis_.ok()) << redis_.error();
    key_ = decision::pacing::redis_ledger::RedisGoalLedger::key_of(1);
    const std::optional<uint16_t> primary = redis_.primary_for_key(key_);
    ASSERT_TRUE(primary) << redis_.error();
    primary_ = *primary;
    const CliReply loaded = redis_.cli(
        {"FUNCTION", "LOAD", "REPLACE", std::string(decision::pacing::redis_ledger::pacing_library())}, primary_);
    ASSERT_TRUE(loaded) << loaded.error;
  }

  SimulationResult run(decision::catalog::Pacing pacing, uint64_t goal) {
    EXPECT_TRUE(redis_.cli({"DEL", key_}, primary_)) << "a fresh goal";
    BlockingLedger ledger(primary_);
    EXPECT_TRUE(ledger.ok());
    const SimulationResult result = simulate_day({.pacing = pacing, .goal = goal, .cores = 1, .nodes = 3,
                                                  .ledger = &ledger,
                                                  .deliver_ledger_answers = [&] { ledger.deliver(); }});
    EXPECT_GT(ledger.leases, 3u * 1000u) << "every node leased every slice";
    const CliReply stored = redis_.cli({"HGET", key_, "delivered"}, primary_);
    EXPECT_TRUE(stored) << stored.error;
    // Impressions counted after the nodes' last reports are not in the ledger's count: at
    // most the last slice's.
    if (stored) {
      EXPECT_LE(std::stoull(stored.out), result.delivered);
    }
    return result;
  }

  static void print(const char* name, const SimulationResult& r, uint64_t goal) {
    std::printf("[ pacing, 3 nodes ] %s:", name);
    for (size_t h = 0; h < r.delivered_by_hour.size(); h += 3) {
      std::printf(" h%zu=%llu(%.0f)", h + 1, static_cast<unsigned long long>(r.delivered_by_hour[h]),
                  static_cast<double>(goal) * static_cast<double>(h + 1) / 24.0);
    }
    std::printf(" end=%llu of %llu\n", static_cast<unsigned long long>(r.delivered), static_cast<unsigned long long>(goal));
  }

  RedisCluster redis_;
  std::string key_;
  uint16_t primary_ = 0;
};

TEST_F(PacingClusterDay, EvenThroughThreeNodesEndsWithinFivePercentAndTracksTheCurve) {
  const SimulationResult r = run(decision::catalog::Pacing::kEven, kDayGoal);
  print("even", r, kDayGoal);
  EXPECT_NEAR(static_cast<double>(r.delivered), static_cast<double>(kDayGoal), 0.05 * kDayGoal);
  EXPECT_LE(r.delivered, kDayGoal);
  ASSERT_EQ(r.delivered_by_hour.size(), 24u);
  for (size_t h = 1; h < 24; ++h) {
    const double even = static_cast<double>(kDayGoal) * static_cast<double>(h + 1) / 24.0;
    EXPECT_NEAR(static_cast<double>(r.delivered_by_hour[h]), even, 0.10 * even) << "hour " << h + 1;
  }
}

TEST_F(PacingClusterDay, AsapThroughThreeNodesMeetsTheGoalOnceAndStops) {
  const SimulationResult r = run(decision::catalog::Pacing::kAsap, kDayGoal);
  print("asap", r, kDayGoal);
  ASSERT_GE(r.goal_met_at_s, 0) << "never met";
  EXPECT_LE(r.delivered, kDayGoal);
  EXPECT_LT(r.served_after_met, 200u);
}

TEST_F(PacingClusterDay, FrontloadedThroughThreeNodesRunsAheadThenMeetsTheGoal) {
  const SimulationResult r = run(decision::catalog::Pacing::kFrontloaded, kDayGoal);
  print("frontloaded", r, kDayGoal);
  ASSERT_EQ(r.delivered_by_hour.size(), 24u);
  for (size_t h = 1; h < 12; ++h) {
    EXPECT_GT(static_cast<double>(r.delivered_by_hour[h]), static_cast<double>(kDayGoal) * static_cast<double>(h + 1) / 24.0)
        << "hour " << h + 1;
  }
  EXPECT_NEAR(static_cast<double>(r.delivered), static_cast<double>(kDayGoal), 0.05 * kDayGoal);
  EXPECT_LE(r.delivered, kDayGoal);
}

TEST_F(PacingClusterDay, AGoalLargerThanTheTrafficDeliversAllItCanThroughThreeNodesAndSaysItIsBehind) {
  const uint64_t goal = 200'000;  // the traffic allows about 78,000
  const SimulationResult r = run(decision::catalog::Pacing::kEven, goal);
  print("larger than traffic", r, goal);
  const double all_it_can = static_cast<double>(r.requests) * 0.5 * 0.9;
  EXPECT_NEAR(static_cast<double>(r.delivered), all_it_can, 0.03 * all_it_can);
  EXPECT_EQ(r.final_status, decision::pacing::GoalStatus::kBehind);
  EXPECT_DOUBLE_EQ(r.final_throttle, 1.0);
}

}  // namespace
}  // namespace integration
