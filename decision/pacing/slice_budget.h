#pragma once
// How the node's plan for a slice becomes what its cores may serve (docs/pacing.md): a node
// alone spends its own plan (embedded mode, NodeBudget); nodes that share their goals lease
// each goal's tokens from the ledger first (cluster mode, ledger_budget.h). Chosen once,
// where the process is wired; the rounds (pacing_rounds.h) only ask settle().
#include <cstdint>
#include <span>
#include <vector>

#include "decision/pacing/node_pacing.h"
#include "decision/pacing/paced_goal.h"

namespace decision::pacing {

// A slice's plan as the coordinating core made it; every reference outlives the settling.
struct NodeSlicePlan {
  NodePacing& node;
  std::span<const PacedGoal> goals;                        // planned, in plan order
  std::vector<std::vector<CoreAllotment>>& allotments;     // by core, as planned: settled in place
  int64_t slice_id = 0;    // the slice's start, unix seconds
  int64_t interval_s = 0;  // --pacing-interval
};

class BudgetSettled {
 public:
  virtual ~BudgetSettled() = default;
  // plan's allotments are final: hand them to the cores.
  virtual void budget_settled() = 0;
};

class SliceBudget {
 public:
  virtual ~SliceBudget() = default;
  // Settles plan's allotments, then tells done (at once, or once a ledger has answered).
  // One settling at a time.
  virtual void settle(const NodeSlicePlan& plan, BudgetSettled& done) = 0;
};

// A node alone: its plan is its budget.
class NodeBudget final : public SliceBudget {
 public:
  void settle(const NodeSlicePlan&, BudgetSettled& done) override { done.budget_settled(); }
};

}  // namespace decision::pacing
