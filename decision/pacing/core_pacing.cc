#include "decision/pacing/core_pacing.h"

#include <algorithm>

namespace decision::pacing {

namespace {
// The throttle's resolution: draws are integers in [0, kThrottleScale).
constexpr uint64_t kThrottleScale = uint64_t{1} << 32;
}  // namespace

bool CorePacing::admit(uint64_t ad_id, selection::CoreRandom& random) {
  const auto it = goals_.find(ad_id);
  if (it == goals_.end()) return false;
  CoreGoalView& goal = it->second;
  ++goal.since_round.opportunities;
  if (goal.tokens_left == 0) return false;
  if (goal.throttle < 1.0 &&
      static_cast<double>(random.below(kThrottleScale)) >= goal.throttle * static_cast<double>(kThrottleScale)) {
    return false;
  }
  ++goal.since_round.admitted;
  return true;
}

const CoreGoalView* CorePacing::view(uint64_t ad_id) const {
  const auto it = goals_.find(ad_id);
  return it == goals_.end() ? nullptr : &it->second;
}

void CorePacing::served(uint64_t ad_id) {
  const auto it = goals_.find(ad_id);
  if (it == goals_.end()) return;
  if (it->second.tokens_left > 0) --it->second.tokens_left;
  ++it->second.since_round.served;
}

void CorePacing::counted(uint64_t ad_id) {
  const auto it = goals_.find(ad_id);
  if (it != goals_.end()) ++it->second.since_round.delivered;
}

void CorePacing::restore(const tracking::impressions::CountedByAd& counted) { restored_ = counted; }

void CorePacing::take_tallies(std::vector<CoreTally>& out) {
  out.clear();
  for (const auto& [ad_id, delivered] : restored_) out.push_back({ad_id, SliceTally{.delivered = delivered}});
  restored_.clear();
  for (auto& [ad_id, goal] : goals_) {
    out.push_back({ad_id, goal.since_round});
    goal.since_round = {};
  }
}

void CorePacing::set_goals(std::span<const PacedGoal> goals) {
  catalog_goals_.clear();
  for (const PacedGoal& goal : goals) {
    catalog_goals_.insert(goal.ad_id);
    goals_.try_emplace(goal.ad_id);
  }
  list_ad_ids();
}

void CorePacing::apply(std::span<const CoreAllotment> allotments) {
  for (auto& [ad_id, goal] : goals_) {
    goal.allotted = false;
    goal.tokens_left = 0;
    goal.throttle = 0;
  }
  for (const CoreAllotment& a : allotments) {
    // What this core saw since its tally stays in since_round, for the next round.
    CoreGoalView& goal = goals_[a.ad_id];
    goal.allotted = true;
    goal.tokens_left = a.tokens;
    goal.throttle = a.throttle;
    goal.goal = a.goal;
    goal.delivered = a.delivered;
    goal.target = a.target;
    goal.status = a.status;
  }
  absl::erase_if(goals_, [&](const auto& entry) {
    const CoreGoalView& goal = entry.second;
    return !goal.allotted && !catalog_goals_.contains(entry.first) && goal.since_round.delivered == 0 &&
           goal.since_round.served == 0 && goal.since_round.opportunities == 0;
  });
  list_ad_ids();
}

void CorePacing::list_ad_ids() {
  ad_ids_.clear();
  for (const auto& [ad_id, goal] : goals_) ad_ids_.push_back(ad_id);
  std::sort(ad_ids_.begin(), ad_ids_.end());
}

}  // namespace decision::pacing
