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

void CorePacing::apply(std::span<const CoreAllotment> allotments) {
  absl::flat_hash_map<uint64_t, CoreGoalView> next;
  next.reserve(allotments.size());
  for (const CoreAllotment& a : allotments) {
    CoreGoalView& goal = next[a.ad_id];
    goal.tokens_left = a.tokens;
    goal.throttle = a.throttle;
    goal.goal = a.goal;
    goal.delivered = a.delivered;
    goal.target = a.target;
    goal.status = a.status;
    // What this core saw between its tally and this allotment goes into the next round.
    if (const auto old = goals_.find(a.ad_id); old != goals_.end()) goal.since_round = old->second.since_round;
  }
  goals_ = std::move(next);
  ad_ids_.clear();
  for (const auto& [ad_id, goal] : goals_) ad_ids_.push_back(ad_id);
  std::sort(ad_ids_.begin(), ad_ids_.end());
}

}  // namespace decision::pacing
