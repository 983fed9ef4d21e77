#include "decision/pacing/node_pacing.h"

#include <algorithm>

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
  reports_.clear();
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
    for (uint32_t core = 0; core < cores_; ++core) {
      allotments[core].push_back(
          {goal.ad_id, shares[core], plan.throttle, goal.flight.goal.impressions, controller.delivered(), plan.target,
           plan.status});
    }
    reports_.push_back({goal.ad_id, goal.flight.goal.impressions, controller.delivered(), plan});
  }
  // Counts of goals that left the catalog are kept in their controllers (a goal that comes
  // back resumes); this round's sums are spent.
  round_.clear();
}

uint64_t NodePacing::delivered(uint64_t ad_id) const {
  const auto it = controllers_.find(ad_id);
  return it == controllers_.end() ? 0 : it->second.delivered();
}

}  // namespace decision::pacing
