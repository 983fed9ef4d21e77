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
#include <vector>

#include "tests/integration/cluster/goal_ledger_fixture.h"
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
constexpr int64_t kKeepUntil = 4102444800;  // 2100-01-01

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
    // As decisiond calls it, but kept until 2100: the simulated flight is a day of 2025 on
    // the injected clock, and Redis expires keys by its own.
    LeaseRequest request = r;
    request.keep_until_s = kKeepUntil;
    std::vector<std::string> args = {"FCALL", "decisiond_pace", "1", decision::pacing::redis_ledger::pace_key(r.ad_id)};
    for (const std::string& a : decision::pacing::redis_ledger::pace_arguments(request)) args.push_back(a);
    std::vector<const char*> argv;
    std::vector<size_t> lengths;
    for (const std::string& a : args) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    auto* reply = static_cast<redisReply*>(
        redisCommandArgv(context_, static_cast<int>(args.size()), argv.data(), lengths.data()));
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

class PacingClusterDay : public GoalLedgerFixture {
 protected:
  void SetUp() override { load_ledger_for(1); }  // the simulation's paced ad

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
