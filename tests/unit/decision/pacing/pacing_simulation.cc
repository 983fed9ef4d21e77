#include "tests/unit/decision/pacing/pacing_simulation.h"

#include <cmath>
#include <numbers>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "decision/catalog/loader.h"
#include "decision/pacing/ledger_budget.h"
#include "decision/pacing/pacing_rounds.h"
#include "decision/pacing/pacing_rule.h"
#include "decision/selection/ad_selector.h"
#include "gtest/gtest.h"
#include "tests/unit/runtime/queue_channel.h"
#include "runtime/clock.h"
#include "runtime/core_channel.h"
#include "runtime/timer_wheel.h"

namespace decision::pacing::testing {
namespace {

constexpr int64_t kDay = 24 * 3600;
constexpr uint64_t kPacedAd = 1;
// 2025-11-21T00:00:00Z, ManualClock's start.
constexpr int64_t kFlightStart = 1'763'683'200;
constexpr double kRenderRate = 0.9;

std::string catalog_json(const SimulationSettings& s) {
  const std::string pacing(catalog::pacing_name(s.pacing));
  // The paced ad shares its tier with an ad without a goal, so that being let through by
  // pacing is not the same as being served.
  return absl::StrCat(R"({"revision": "pacing-sim", "defaultLanguage": "en",
    "priorities": [{"key": "standard", "weight": 50}],
    "advertisers": [{"id": 1, "name": "One"}], "templates": [{"id": 1, "key": "card"}],
    "placements": [{"id": 1, "key": "p"}],
    "ads": [
      {"id": 1, "advertiserId": 1, "placementIds": [1], "templateId": 1, "priority": "standard", "weight": 1,
       "start": "2025-11-21T00:00:00Z", "end": "2025-11-22T00:00:00Z",
       "delivery": {"impressions": )", s.goal, R"(, "pacing": ")", pacing, R"("},
       "creatives": [{"id": 11, "contents": {"en": [{"key": "title", "value": "paced"}]}}]},
      {"id": 2, "advertiserId": 1, "placementIds": [1], "templateId": 1, "priority": "standard", "weight": 1,
       "start": "2025-11-01T00:00:00Z",
       "creatives": [{"id": 21, "contents": {"en": [{"key": "title", "value": "filler"}]}}]}
    ]})");
}

struct FixedGoals final : GoalSource {
  std::vector<PacedGoal> goals;
  std::span<const PacedGoal> paced_goals() const override { return goals; }
};

struct PassAll final : selection::EligibilityRule {
  bool eligible(const catalog::Ad&, uint32_t) override { return true; }
};

struct SimCore {
  SimCore(uint32_t core, uint32_t cores, const runtime::Clock& clock, const GoalSource& goals, int64_t interval_s,
          std::deque<runtime::PostedMessage>& posted, runtime::AskPeers<PacingAsk>& peers, GoalLedger* ledger, uint32_t node)
      : node_id("sim-node-" + std::to_string(node)),
        budget(make_budget(ledger, node_id)),
        random(7 + node, core),
        selector(random),
        rule(pass_all, &book, random),
        wheel(clock.monotonic_ms(), 10),
        channel(core, cores, posted),
        rounds(book, goals, wheel, clock, core, cores, interval_s, *budget, PacingLinks{&channel, &peers}) {}

  // As the service wires it: the coordinating core of a node sharing goals leases them.
  static std::unique_ptr<SliceBudget> make_budget(GoalLedger* ledger, const std::string& node_id) {
    if (ledger != nullptr) return std::make_unique<LedgerBudget>(*ledger, node_id);
    return std::make_unique<NodeBudget>();
  }

  std::string node_id;  // what its reports to the ledger name
  std::unique_ptr<SliceBudget> budget;  // before rounds, which settles with it
  selection::CoreRandom random;
  selection::AdSelector selector;
  PassAll pass_all;
  CorePacing book;
  PacingRule rule;
  runtime::TimerWheel wheel;
  runtime::QueueChannel channel;
  PacingRounds rounds;
};

// Requests per second at t seconds into the day: trough 0.4x the mean at midnight, peak
// 1.6x at noon (4 to 1).
double rate_at(double mean, int64_t t) {
  return mean * (1.0 - 0.6 * std::cos(2.0 * std::numbers::pi * static_cast<double>(t) / kDay));
}

}  // namespace

SimulationResult simulate_day(const SimulationSettings& settings) {
  SimulationResult result;
  const catalog::LoadResult loaded = catalog::load_catalog(catalog_json(settings));
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (!loaded.ok()) return result;
  const catalog::CatalogSnapshot& snapshot = *loaded.snapshot;
  const uint32_t paced_index = *snapshot.ad_index(kPacedAd);
  FixedGoals goals;
  const catalog::Ad& paced = snapshot.ads()[paced_index];
  goals.goals.push_back({paced.id, {*paced.delivery, paced.start_s, paced.end_s}});

  runtime::ManualClock clock;
  // Each node's cores, its own message queue and ask peers: messages never cross nodes.
  const uint32_t nodes = std::max<uint32_t>(1, settings.nodes);
  std::vector<std::deque<runtime::PostedMessage>> posted(nodes);
  std::vector<std::unique_ptr<runtime::AskPeers<PacingAsk>>> peers;
  std::vector<std::unique_ptr<SimCore>> cores;  // node n's cores at n * settings.cores ...
  for (uint32_t n = 0; n < nodes; ++n) {
    peers.push_back(std::make_unique<runtime::AskPeers<PacingAsk>>(settings.cores));
    for (uint32_t c = 0; c < settings.cores; ++c) {
      cores.push_back(std::make_unique<SimCore>(c, settings.cores, clock, goals, settings.interval_s, posted[n],
                                                *peers[n], c == 0 ? settings.ledger : nullptr, n));
    }
  }
  const auto carry = [&] {
    for (bool moved = true; moved;) {
      moved = false;
      for (std::deque<runtime::PostedMessage>& queue : posted) {
        while (!queue.empty()) {
          const runtime::PostedMessage p = queue.front();
          queue.pop_front();
          runtime::CrossCoreAsks<PacingAsk>::deliver(p.message);
          moved = true;
        }
      }
      if (settings.deliver_ledger_answers) settings.deliver_ledger_answers();
      for (const std::deque<runtime::PostedMessage>& queue : posted) moved = moved || !queue.empty();
    }
  };
  for (auto& core : cores) core->book.set_goals(goals.goals);
  for (uint32_t n = 0; n < nodes; ++n) cores[n * settings.cores]->rounds.start();
  clock.advance(std::chrono::milliseconds(10));
  for (auto& core : cores) core->wheel.advance(clock.monotonic_ms());
  carry();

  selection::CoreRandom traffic(11, 0);
  selection::ChosenAds chosen;
  std::array<selection::Pick, 1> out{};
  const selection::PlacementFilter filter;
  double owed = 0;
  uint64_t delivered = 0;
  for (int64_t t = 0; t < kDay; ++t) {
    clock.advance(std::chrono::seconds(1));
    for (auto& core : cores) core->wheel.advance(clock.monotonic_ms());
    carry();
    const int64_t now_s = kFlightStart + t;
    for (owed += rate_at(settings.mean_requests_per_s, t); owed >= 1; owed -= 1) {
      ++result.requests;
      SimCore& core = *cores[traffic.below(cores.size())];
      chosen.clear();
      const uint32_t picked = core.selector.select(snapshot, 0, filter, now_s, &core.rule, chosen, out);
      for (uint32_t i = 0; i < picked; ++i) {
        const catalog::Ad& ad = snapshot.ads()[out[i].ad_index];
        core.rule.served(ad);
        if (ad.id != kPacedAd) continue;
        if (delivered >= settings.goal) ++result.served_after_met;
        if (traffic.below(1000) >= kRenderRate * 1000) continue;
        cores[traffic.below(cores.size())]->book.counted(ad.id);
        if (++delivered == settings.goal) result.goal_met_at_s = t;
      }
    }
    if ((t + 1) % 3600 == 0) result.delivered_by_hour.push_back(delivered);
    if (t == kDay - 2) {
      if (const std::optional<CoreGoalView> view = cores[0]->book.view(kPacedAd)) {
        result.final_status = view->status;
        result.final_throttle = view->throttle;
      }
    }
  }
  for (auto& core : cores) core->rounds.stop();
  carry();
  result.delivered = delivered;
  return result;
}

}  // namespace decision::pacing::testing
