#pragma once
// Cluster mode's slice budget (slice_budget.h): each planned goal is leased from the ledger
// the nodes share (goal_ledger.h), carrying this node's report, and its grant replaces the
// plan's share before the cores are allotted (docs/pacing.md, "Across nodes"). A ledger that
// refuses or does not answer grants nothing for the slice.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "decision/pacing/goal_ledger.h"
#include "decision/pacing/slice_budget.h"

namespace decision::pacing {

class LedgerBudget final : public SliceBudget, private LeaseDone {
 public:
  // node_id: this node's (--node-id), which its reports carry; never empty.
  LedgerBudget(GoalLedger& ledger, std::string_view node_id);

  void settle(const NodeSlicePlan& plan, BudgetSettled& done) override;

 private:
  void on_lease(const LeaseRequest& request, const LeaseGrant* granted) override;

  GoalLedger& ledger_;
  const std::string node_id_;
  std::optional<NodeSlicePlan> plan_;  // the plan being settled
  BudgetSettled* done_ = nullptr;
  absl::flat_hash_map<uint64_t, size_t> index_;  // ad id -> plan_->goals
  uint32_t leases_awaited_ = 0;
};

}  // namespace decision::pacing
