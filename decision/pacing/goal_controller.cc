#include "decision/pacing/goal_controller.h"

#include <algorithm>

#include "decision/pacing/delivery_curve.h"

namespace decision::pacing {

std::string_view goal_status_name(GoalStatus status) {
  switch (status) {
    case GoalStatus::kNotStarted: return "not_started";
    case GoalStatus::kOnTrack: return "on_track";
    case GoalStatus::kBehind: return "behind";
    case GoalStatus::kMet: return "met";
    case GoalStatus::kEnded: return "ended";
  }
  return "on_track";
}

namespace {
double follow(double average, double seen) {
  return average < 0 ? seen : (1 - kExpectationWeight) * average + kExpectationWeight * seen;
}
}  // namespace

SlicePlan GoalController::plan(const GoalFlight& flight, const SliceTally& last, int64_t slice_start_s,
                               int64_t slice_end_s) {
  delivered_ += last.delivered;
  // A slice where pacing let nothing through says nothing of how often the ad would serve.
  if (last.opportunities > 0) expected_opportunities_ = follow(expected_opportunities_, static_cast<double>(last.opportunities));
  if (last.admitted > 0) {
    served_per_admitted_ =
        std::clamp(follow(served_per_admitted_, static_cast<double>(last.served) / static_cast<double>(last.admitted)),
                   0.01, 1.0);
  }
  const bool was_wide_open = last_plan_.throttle >= 1.0 && last_plan_.tokens > 0;
  SlicePlan plan;
  plan.target = target_at(flight.goal, flight.start_s, flight.end_s, slice_end_s);
  if (slice_start_s >= flight.end_s) {
    plan.status = GoalStatus::kEnded;
  } else if (slice_end_s <= flight.start_s) {
    plan.status = GoalStatus::kNotStarted;
  } else if (delivered_ >= flight.goal.impressions) {
    plan.status = GoalStatus::kMet;
  } else {
    plan.tokens = plan.target > delivered_ ? plan.target - delivered_ : 0;
    plan.throttle = throttle_for(plan.tokens);
    // Behind: short of where the last slice should have ended, although it let every
    // opportunity through (or saw none): the traffic, not pacing, is what is missing.
    const bool short_of_last = delivered_ < last_plan_.target;
    plan.status = (short_of_last && (was_wide_open || last.opportunities == 0) && last_plan_.status != GoalStatus::kNotStarted)
                      ? GoalStatus::kBehind
                      : GoalStatus::kOnTrack;
  }
  last_plan_ = plan;
  return plan;
}

double GoalController::throttle_for(uint64_t tokens) const {
  if (tokens == 0) return 0.0;
  const double expected = expected_serves();
  return expected <= 0 || expected <= static_cast<double>(tokens) ? 1.0 : static_cast<double>(tokens) / expected;
}

double GoalController::expected_serves() const {
  if (expected_opportunities_ < 0) return -1;
  return expected_opportunities_ * (served_per_admitted_ < 0 ? 1.0 : served_per_admitted_);
}

SlicePlan GoalController::apply_grant(const GoalFlight& flight, uint64_t tokens, uint64_t delivered) {
  delivered_ = delivered;
  SlicePlan& plan = last_plan_;
  if (plan.status == GoalStatus::kNotStarted || plan.status == GoalStatus::kEnded) return plan;
  if (delivered_ >= flight.goal.impressions) {
    plan.status = GoalStatus::kMet;
    plan.tokens = 0;
    plan.throttle = 0;
    return plan;
  }
  plan.tokens = tokens;
  plan.throttle = throttle_for(tokens);
  if (plan.status == GoalStatus::kMet) plan.status = GoalStatus::kOnTrack;
  return plan;
}

}  // namespace decision::pacing
