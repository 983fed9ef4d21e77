#include "decision/pacing/node_pacing.h"

#include <algorithm>
#include <cmath>

namespace decision::pacing {

void split_tokens(uint64_t tokens, std::span<const uint64_t> weights, std::span<uint64_t> out) {
  const size_t n = out.size();
  if (n == 0) return;
  const auto weight = [&](size_t c) { return static_cast<long double>(c < weights.size() ? weights[c] : 0) + 1; };
  long double total = 0;
  size_t heaviest = 0;
  for (size_t c = 0; c < n; ++c) {
    total += weight(c);
    if (weight(c) > weight(heaviest)) heaviest = c;
  }
  uint64_t given = 0;
  for (size_t c = 0; c < n; ++c) {
    out[c] = static_cast<uint64_t>(static_cast<long double>(tokens) * weight(c) / total);
    given += out[c];
  }
  out[heaviest] += tokens - given;
}

void NodePacing::add(uint32_t core, std::span<const CoreTally> tallies) {
  for (const CoreTally& t : tallies) {
    RoundSums& sums = round_[t.ad_id];
    sums.node += t.tally;
    if (sums.opportunities_by_core.size() != cores_) sums.opportunities_by_core.assign(cores_, 0);
    if (core < cores_) sums.opportunities_by_core[core] += t.tally.opportunities;
  }
}

void NodePacing::plan(std::span<const PacedGoal> goals, int64_t slice_start_s, int64_t slice_end_s,
                      std::vector<std::vector<CoreAllotment>>& allotments) {
  allotments.resize(cores_);
  for (std::vector<CoreAllotment>& a : allotments) a.clear();
  std::vector<uint64_t> shares(cores_);
  const std::vector<uint64_t> no_weights(cores_, 0);
  for (const PacedGoal& goal : goals) {
    GoalController& controller = controllers_[goal.ad_id];
    const auto sums = round_.find(goal.ad_id);
    const SliceTally last = sums == round_.end() ? SliceTally{} : sums->second.node;
    const SlicePlan plan = controller.plan(goal.flight, last, slice_start_s, slice_end_s);
    const std::vector<uint64_t>& weights =
        sums == round_.end() || sums->second.opportunities_by_core.empty() ? no_weights
                                                                           : sums->second.opportunities_by_core;
    split_tokens(plan.tokens, weights, shares);
    Unreported& unreported = ledger_[goal.ad_id];
    unreported.delivered_total += last.delivered;
    unreported.served += last.served;
    unreported.weights = weights;
    for (uint32_t core = 0; core < cores_; ++core) {
      allotments[core].push_back(
          {goal.ad_id, shares[core], plan.throttle, goal.flight.goal.impressions, controller.delivered(), plan.target,
           plan.status});
    }
  }
  // Counts of goals that left the catalog are kept in their controllers (a goal that comes
  // back resumes); this round's sums of the goals planned are spent. What was counted of an
  // ad not planned (not a goal now: the logs' counts at start when the catalog has none
  // yet, a goal left out of a swap) waits for the plan that has it as a goal.
  for (const PacedGoal& goal : goals) round_.erase(goal.ad_id);
  absl::erase_if(round_, [](const auto& entry) { return entry.second.node.delivered == 0; });
  for (auto& [ad_id, sums] : round_) sums = RoundSums{.node = SliceTally{.delivered = sums.node.delivered}};
}

// What a node wants of a slice: its expected serves with a quarter more, so a node whose
// traffic grows is not held to the last slice's; before any slice with traffic, its own
// plan's whole budget. Never more than that budget.
LeaseRequest NodePacing::lease_request(const PacedGoal& goal, int64_t slice_start_s, int64_t interval_s) const {
  LeaseRequest request;
  request.ad_id = goal.ad_id;
  request.slice_id = slice_start_s;
  request.interval_s = interval_s;
  const auto it = ledger_.find(goal.ad_id);
  const auto controller = controllers_.find(goal.ad_id);
  if (it == ledger_.end() || controller == controllers_.end()) return request;
  request.delivered_total = it->second.delivered_total;
  request.settle_slice_id = it->second.granted_slice;
  request.settle_tokens = it->second.granted;
  request.settle_served = std::min(it->second.served, it->second.granted);
  // Before the ledger answers, the last plan is the node's own.
  const SlicePlan& own = controller->second.last_plan();
  request.target = own.target;
  const double expected = controller->second.expected_serves();
  request.want = expected < 0 ? own.tokens
                              : std::min<uint64_t>(own.tokens, static_cast<uint64_t>(std::ceil(expected * 1.25)) + 1);
  constexpr int64_t kKeptAfterFlight = 7 * 24 * 3600;
  request.keep_until_s = goal.flight.end_s + kKeptAfterFlight;
  return request;
}

void NodePacing::apply_grant(size_t index, const PacedGoal& goal, int64_t slice_id, const LeaseGrant* granted,
                             std::vector<std::vector<CoreAllotment>>& allotments) {
  Unreported& unreported = ledger_[goal.ad_id];
  GoalController& controller = controllers_[goal.ad_id];
  uint64_t tokens = 0;
  uint64_t delivered = controller.delivered();
  if (granted != nullptr) {
    unreported.served = 0;
    tokens = granted->tokens;
    delivered = granted->delivered;
    unreported.granted = tokens;
    unreported.granted_slice = slice_id;
  }
  const SlicePlan plan = controller.apply_grant(goal.flight, tokens, delivered);
  std::vector<uint64_t> shares(cores_);
  split_tokens(plan.tokens, unreported.weights, shares);
  // plan() listed the goals in order: the goal's allotment is at its index.
  for (uint32_t core = 0; core < cores_ && core < allotments.size(); ++core) {
    if (index >= allotments[core].size() || allotments[core][index].ad_id != goal.ad_id) continue;
    CoreAllotment& a = allotments[core][index];
    a.tokens = shares[core];
    a.throttle = plan.throttle;
    a.delivered = delivered;
    a.status = plan.status;
  }
}

uint64_t NodePacing::delivered(uint64_t ad_id) const {
  const auto it = controllers_.find(ad_id);
  return it == controllers_.end() ? 0 : it->second.delivered();
}

}  // namespace decision::pacing
