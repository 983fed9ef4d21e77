#include "decision/pacing/core_pacing.h"

#include <algorithm>

#include "runtime/check.h"

namespace decision::pacing {

namespace {
// The throttle's resolution: draws are integers in [0, kThrottleScale).
constexpr uint64_t kThrottleScale = uint64_t{1} << 32;
}  // namespace

uint32_t CorePacing::position_by_id(uint64_t ad_id) const {
  const auto it = position_by_ad_.find(ad_id);
  return it == position_by_ad_.end() ? kNoGoal : it->second;
}

uint32_t CorePacing::position_of(uint64_t ad_id, uint32_t goal_index) const {
  if (goal_index < catalog_goals_ && decisions_[goal_index].ad_id == ad_id) return goal_index;
  return position_by_id(ad_id);
}

uint32_t CorePacing::append(uint64_t ad_id) {
  const auto position = static_cast<uint32_t>(decisions_.size());
  decisions_.push_back({.ad_id = ad_id});
  rounds_.emplace_back();
  position_by_ad_[ad_id] = position;
  return position;
}

bool CorePacing::admit(uint64_t ad_id, uint32_t goal_index, selection::CoreRandom& random) {
  const uint32_t position = position_of(ad_id, goal_index);
  if (position == kNoGoal) return false;
  DecisionSide& goal = decisions_[position];
  ++goal.opportunities;
  if (goal.tokens_left == 0) return false;
  if (goal.throttle < 1.0 &&
      static_cast<double>(random.below(kThrottleScale)) >= goal.throttle * static_cast<double>(kThrottleScale)) {
    return false;
  }
  ++goal.admitted;
  return true;
}

std::optional<CoreGoalView> CorePacing::view(uint64_t ad_id) const {
  const uint32_t position = position_by_id(ad_id);
  if (position == kNoGoal) return std::nullopt;
  const DecisionSide& d = decisions_[position];
  const RoundSide& r = rounds_[position];
  return CoreGoalView{.allotted = r.allotted,
                      .tokens_left = d.tokens_left,
                      .throttle = d.throttle,
                      .goal = r.goal,
                      .delivered = r.delivered,
                      .target = r.target,
                      .status = r.status,
                      .since_round = {.opportunities = d.opportunities,
                                      .admitted = d.admitted,
                                      .served = d.served,
                                      .delivered = r.delivered_since_round}};
}

void CorePacing::served(uint64_t ad_id, uint32_t goal_index) {
  const uint32_t position = position_of(ad_id, goal_index);
  if (position == kNoGoal) return;
  DecisionSide& goal = decisions_[position];
  if (goal.tokens_left > 0) --goal.tokens_left;
  ++goal.served;
}

void CorePacing::counted(uint64_t ad_id) {
  const uint32_t position = position_by_id(ad_id);
  if (position != kNoGoal) ++rounds_[position].delivered_since_round;
}

void CorePacing::restore(const tracking::impressions::CountedByAd& counted) { restored_ = counted; }

void CorePacing::take_tallies(std::vector<CoreTally>& out) {
  out.clear();
  for (const auto& [ad_id, delivered] : restored_) out.push_back({ad_id, SliceTally{.delivered = delivered}});
  restored_.clear();
  for (size_t i = 0; i < decisions_.size(); ++i) {
    DecisionSide& d = decisions_[i];
    RoundSide& r = rounds_[i];
    out.push_back({d.ad_id, SliceTally{.opportunities = d.opportunities,
                                       .admitted = d.admitted,
                                       .served = d.served,
                                       .delivered = r.delivered_since_round}});
    d.opportunities = d.admitted = d.served = 0;
    r.delivered_since_round = 0;
  }
}

void CorePacing::set_goals(std::span<const PacedGoal> goals) {
  std::vector<DecisionSide> decisions(goals.size());
  std::vector<RoundSide> rounds(goals.size());
  std::vector<bool> moved(decisions_.size(), false);
  for (size_t i = 0; i < goals.size(); ++i) {
    const uint32_t before = position_by_id(goals[i].ad_id);
    if (before != kNoGoal) {
      decisions[i] = decisions_[before];
      rounds[i] = rounds_[before];
      moved[before] = true;
    } else {
      decisions[i].ad_id = goals[i].ad_id;
    }
  }
  // Goals of the catalog before, after the new catalog's: their tallies and tokens stay.
  for (size_t before = 0; before < decisions_.size(); ++before) {
    if (moved[before]) continue;
    decisions.push_back(decisions_[before]);
    rounds.push_back(rounds_[before]);
  }
  decisions_ = std::move(decisions);
  rounds_ = std::move(rounds);
  catalog_goals_ = static_cast<uint32_t>(goals.size());
  DECISIOND_CHECK_MSG(decisions_.size() == rounds_.size(), "a pacing book's two sides out of step");
  position_by_ad_.clear();
  for (uint32_t i = 0; i < decisions_.size(); ++i) position_by_ad_[decisions_[i].ad_id] = i;
  list_ad_ids();
  note_allotted();
}

void CorePacing::apply(std::span<const CoreAllotment> allotments) {
  for (size_t i = 0; i < decisions_.size(); ++i) {
    rounds_[i].allotted = false;
    decisions_[i].tokens_left = 0;
    decisions_[i].throttle = 0;
  }
  for (const CoreAllotment& a : allotments) allot(a);
  drop_idle_leftovers();
  list_ad_ids();
  note_allotted();
}

void CorePacing::add(std::span<const CoreAllotment> allotments) {
  for (const CoreAllotment& a : allotments) allot(a);
  list_ad_ids();
  note_allotted();
}

void CorePacing::allot(const CoreAllotment& a) {
  uint32_t position = position_by_id(a.ad_id);
  if (position == kNoGoal) position = append(a.ad_id);
  decisions_[position].tokens_left = a.tokens;
  decisions_[position].throttle = a.throttle;
  RoundSide& r = rounds_[position];
  r.allotted = true;
  r.goal = a.goal;
  r.delivered = a.delivered;
  r.target = a.target;
  r.status = a.status;
}

void CorePacing::note_allotted() {
  DECISIOND_CHECK_MSG(catalog_goals_ <= rounds_.size(), "a pacing book lost goals of its catalog");
  bool all = true;
  for (uint32_t i = 0; i < catalog_goals_ && all; ++i) all = rounds_[i].allotted;
  every_goal_allotted_.store(all, std::memory_order_relaxed);
}

void CorePacing::drop_idle_leftovers() {
  uint32_t kept = catalog_goals_;
  for (uint32_t i = catalog_goals_; i < decisions_.size(); ++i) {
    const DecisionSide& d = decisions_[i];
    const RoundSide& r = rounds_[i];
    if (!r.allotted && r.delivered_since_round == 0 && d.served == 0 && d.opportunities == 0) {
      position_by_ad_.erase(d.ad_id);
      continue;
    }
    position_by_ad_[d.ad_id] = kept;
    decisions_[kept] = d;
    rounds_[kept] = r;
    ++kept;
  }
  decisions_.resize(kept);
  rounds_.resize(kept);
}

void CorePacing::list_ad_ids() {
  ad_ids_.clear();
  for (const DecisionSide& goal : decisions_) ad_ids_.push_back(goal.ad_id);
  std::sort(ad_ids_.begin(), ad_ids_.end());
}

}  // namespace decision::pacing
