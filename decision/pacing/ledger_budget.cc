#include "decision/pacing/ledger_budget.h"

#include "runtime/check.h"

namespace decision::pacing {

LedgerBudget::LedgerBudget(GoalLedger& ledger, std::string_view node_id) : ledger_(ledger), node_id_(node_id) {
  DECISIOND_CHECK_MSG(!node_id_.empty(), "a node sharing goals through a ledger has an id");
}

void LedgerBudget::settle(const NodeSlicePlan& plan, BudgetSettled& done) {
  DECISIOND_CHECK_MSG(leases_awaited_ == 0, "pacing: a slice settled while another waits for the ledger");
  if (plan.goals.empty()) {
    done.budget_settled();
    return;
  }
  plan_.emplace(plan);
  done_ = &done;
  index_.clear();
  for (size_t i = 0; i < plan.goals.size(); ++i) index_[plan.goals[i].ad_id] = i;
  // Counted before any lease goes: a refused one answers inside the loop.
  leases_awaited_ = static_cast<uint32_t>(plan.goals.size());
  for (const PacedGoal& goal : plan.goals) {
    LeaseRequest request = plan.node.lease_request(goal, plan.slice_id, plan.interval_s);
    request.node_id = node_id_;
    if (!ledger_.lease(request, *this)) on_lease(request, nullptr);
  }
}

void LedgerBudget::on_lease(const LeaseRequest& request, const LeaseGrant* granted) {
  if (leases_awaited_ == 0) return;  // nothing is being settled
  DECISIOND_CHECK(plan_.has_value());
  if (const auto it = index_.find(request.ad_id); it != index_.end()) {
    plan_->node.apply_grant(it->second, plan_->goals[it->second], request.slice_id, granted, plan_->allotments);
  }
  if (--leases_awaited_ == 0) done_->budget_settled();
}

}  // namespace decision::pacing
