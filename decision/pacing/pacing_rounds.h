#pragma once
// The node's pacing rounds (docs/pacing.md, "Across cores"). Every core has one; core 0
// coordinates: at start and at each slice boundary (wall-clock multiples of
// --pacing-interval) it asks every core for its tallies, and once all have answered, plans
// the slice (node_pacing.h) and hands each core its allotments. Both steps are cross-core
// asks (runtime/cross_core_asks.h); no core touches another's book.
//
// A round that has not finished by the next boundary (a core busy for a whole interval)
// makes that boundary wait for it: slices never overlap, and the allotments in force stay
// until the next plan.
#include <cstdint>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "decision/pacing/core_pacing.h"
#include "decision/pacing/goal_ledger.h"
#include "decision/pacing/node_pacing.h"
#include "decision/pacing/pacing_ask.h"
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

struct PacingLinks {
  runtime::CoreChannel* channel = nullptr;          // null: one core
  runtime::AskPeers<PacingAsk>* peers = nullptr;    // every core's pacing asks; null: one core
  // Cluster mode, on the coordinating core: where the nodes share their goals. Null in
  // embedded mode (the node's plan is the budget).
  GoalLedger* ledger = nullptr;
};

class PacingRounds final : private runtime::Timer, private LeaseDone {
 public:
  PacingRounds(CorePacing& book, const GoalSource& goals, runtime::TimerWheel& timers, const runtime::Clock& clock,
               uint32_t core, uint32_t cores, int64_t interval_s, const PacingLinks& links);
  ~PacingRounds() override;

  // On the coordinating core, at set-up: the first round once the loop runs, then one at
  // each slice boundary. Other cores only answer.
  void start();
  // Stops starting rounds (shutdown); a round under way finishes.
  void stop();

  void serve_ask(PacingAsk& ask, uint32_t from_core);
  bool finish_ask(PacingAsk& ask);

 private:
  void on_expire() override;
  void begin_round();
  // Sends what is still owed to each core (a tally ask, or its allotments); a queue that
  // refused is tried again shortly.
  void send_pending();
  void tally_in(uint32_t core, std::span<const CoreTally> tallies);
  void plan_round();
  // Cluster mode: the plan's goals leased from the ledger; allot() once all have answered.
  void lease_round();
  void on_lease(const LeaseRequest& request, const LeaseGrant* granted) override;
  void allot();
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
  bool boundary_waiting_ = false;  // a boundary passed while a round was open
  uint64_t round_ = 0;
  uint32_t tallies_awaited_ = 0;
  enum class Owed : uint8_t { kNothing, kTallyAsk, kAllotments };
  std::vector<Owed> owed_;  // by core
  std::vector<CoreTally> own_tallies_;
  GoalLedger* ledger_;
  std::vector<PacedGoal> planned_;  // the goals of the round being planned (a catalog may swap meanwhile)
  absl::flat_hash_map<uint64_t, size_t> planned_index_;  // ad id -> planned_
  uint32_t leases_awaited_ = 0;
  std::vector<std::vector<CoreAllotment>> allotments_;
};

}  // namespace decision::pacing
