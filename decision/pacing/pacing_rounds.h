#pragma once
// The node's pacing rounds (docs/pacing.md, "Across cores"). Every core has one; core 0
// coordinates: at start and at each slice boundary (wall-clock multiples of
// --pacing-interval) it asks every core for its tallies, and once all have answered, plans
// the slice (node_pacing.h) and hands each core its allotments. Both steps are cross-core
// asks (runtime/cross_core_asks.h); no core touches another's book.
//
// A catalog swap that brings goals the coordinating core holds no allotment for runs a
// round of those goals only, at once: planned for the rest of the slice and added to every
// core's allotments, the others' left as they are (re-planning them mid-slice would grant
// again the tokens whose impressions have not come back yet).
//
// A round that has not finished by the next boundary (a core busy for a whole interval)
// makes that boundary wait for it: slices never overlap, and the allotments in force stay
// until the next plan.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "decision/pacing/core_pacing.h"
#include "decision/pacing/node_pacing.h"
#include "decision/pacing/pacing_ask.h"
#include "decision/pacing/slice_budget.h"
#include "runtime/clock.h"
#include "runtime/cross_core_asks.h"
#include "runtime/timer_wheel.h"

namespace decision::pacing {

// The goals of the catalog in force on the coordinating core.
class GoalSource {
 public:
  virtual ~GoalSource() = default;
  virtual std::span<const PacedGoal> paced_goals() const = 0;
};

// Told on a core each time a round's allotments have reached its book.
class AllotmentWatcher {
 public:
  virtual ~AllotmentWatcher() = default;
  virtual void allotments_applied() = 0;
};

struct PacingLinks {
  runtime::CoreChannel* channel = nullptr;          // null: one core
  runtime::AskPeers<PacingAsk>* peers = nullptr;    // every core's pacing asks; null: one core
  AllotmentWatcher* watcher = nullptr;  // null: nobody
};

class PacingRounds final : private runtime::Timer, private BudgetSettled {
 public:
  // budget: how the coordinating core's plans become allotments (slice_budget.h); outlives
  // the rounds.
  PacingRounds(CorePacing& book, const GoalSource& goals, runtime::TimerWheel& timers, const runtime::Clock& clock,
               uint32_t core, uint32_t cores, int64_t interval_s, SliceBudget& budget, const PacingLinks& links);
  ~PacingRounds() override;

  // On the coordinating core, at set-up: the first round once the loop runs, then one at
  // each slice boundary. Other cores only answer.
  void start();
  // Stops starting rounds (shutdown); a round under way finishes.
  void stop();
  // On the coordinating core, once it has adopted a catalog whose goals it does not all
  // hold allotments for: a round of those goals, at once, or as soon as the round under way
  // has finished. Elsewhere nothing (the coordinator adopts the same catalog).
  void allot_new_goals();

  void serve_ask(PacingAsk& ask, uint32_t from_core);
  bool finish_ask(PacingAsk& ask);

 private:
  enum class RoundKind : uint8_t { kSlice, kNewGoals };

  void on_expire() override;
  void begin_round();
  void begin_new_goals_round();
  // Sends what is still owed to each core (a tally ask, or its allotments); a queue that
  // refused is tried again shortly. Once nothing is owed and no round is open, begins the
  // round waiting, if any, else waits for the next boundary.
  void send_pending();
  void tally_in(uint32_t core, std::span<const CoreTally> tallies);
  void plan_round();
  // planned_ planned for the rest of the slice, settled by the budget, then allotted.
  void plan_planned();
  // The budget settled the plan: allot.
  void budget_settled() override { allot(); }
  void allot();
  void allotted_here();
  void schedule_next();

  CorePacing& book_;
  const GoalSource& goals_;
  runtime::TimerWheel& timers_;
  const runtime::Clock& clock_;
  const uint32_t core_;
  const uint32_t cores_;
  const int64_t interval_s_;
  runtime::CrossCoreAsks<PacingAsk> asks_;
  NodePacing node_;
  bool started_ = false;
  bool stopped_ = false;
  bool round_open_ = false;
  RoundKind kind_ = RoundKind::kSlice;  // of the open round, or the last
  bool resend_due_ = false;             // the timer is a resend, not a boundary
  bool boundary_waiting_ = false;       // a boundary passed while a round was open
  bool new_goals_waiting_ = false;      // a swap brought goals while a round was open
  uint64_t round_ = 0;
  uint32_t tallies_awaited_ = 0;
  enum class Owed : uint8_t { kNothing, kTallyAsk, kAllotments };
  std::vector<Owed> owed_;  // by core
  std::vector<CoreTally> own_tallies_;
  SliceBudget& budget_;
  AllotmentWatcher* watcher_;
  std::vector<PacedGoal> planned_;  // the goals of the round being planned (a catalog may swap meanwhile)
  std::vector<std::vector<CoreAllotment>> allotments_;
};

}  // namespace decision::pacing
