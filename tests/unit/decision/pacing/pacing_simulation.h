#pragma once
// A day of traffic through the real selector, pacing rule, core books and pacing rounds,
// on an injected clock (docs/pacing.md, "Tests"): requests arrive on a diurnal curve whose
// peak is 4 times its trough, each on a random core of a random node; each served
// impression of the paced ad is counted (9 in 10, as renders are) on a random core of a
// random node, as impressions reach whichever node a balancer picks. The rounds' messages
// are carried between the cores' asks at once, as the reactors would; with several nodes,
// their coordinating cores share the goal through the given ledger.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "decision/catalog/model.h"
#include "decision/pacing/goal_controller.h"
#include "decision/pacing/goal_ledger.h"

namespace decision::pacing::testing {

struct SimulationSettings {
  catalog::Pacing pacing = catalog::Pacing::kEven;
  uint64_t goal = 0;
  uint32_t cores = 1;  // per node
  // Nodes sharing the goal through ledger (cluster mode); 1 and no ledger: one node alone.
  // The ledger answers asynchronously: each answer is delivered by calling the function
  // deliver_ledger_answers, which the simulation calls as it carries messages.
  uint32_t nodes = 1;
  GoalLedger* ledger = nullptr;
  std::function<void()> deliver_ledger_answers;
  double mean_requests_per_s = 2.0;  // over the day; peak 1.6x, trough 0.4x
  int64_t interval_s = 60;
};

struct SimulationResult {
  std::vector<uint64_t> delivered_by_hour;  // counted impressions at the end of each hour, cumulative
  uint64_t delivered = 0;                   // over the day
  uint64_t requests = 0;
  uint64_t served_after_met = 0;            // serves of the paced ad once the goal was counted
  int64_t goal_met_at_s = -1;               // seconds into the flight; -1: never
  GoalStatus final_status = GoalStatus::kNotStarted;  // on core 0, just before the flight ends
  double final_throttle = 0;
};

// Runs the flight (one day from the clock's start) and reports what was counted.
SimulationResult simulate_day(const SimulationSettings& settings);

}  // namespace decision::pacing::testing
