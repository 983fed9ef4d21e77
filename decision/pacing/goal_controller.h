#pragma once
// One delivery goal's controller, run once per pacing interval on the node's coordinating
// core (docs/pacing.md, "The controller"). A token budget per time slice, as Prebid
// Server's delivery planner keeps, plus a throttle probability fed back from delivery that
// spreads the budget over the slice:
//
//   budget   = target at the slice's end - counted so far  (catches up what was missed,
//              and is 0 while ahead), never past the goal
//   throttle = budget / (expected opportunities * served per admitted opportunity)
//
// where both expectations are moving averages of earlier slices. The budget is a hard
// bound (tokens, handed to the cores); the throttle only keeps a slice's tokens from all
// going in its first seconds.
#include <cstdint>
#include <string_view>

#include "decision/catalog/model.h"

namespace decision::pacing {

// What the cores saw of one goal during a slice, summed over the cores.
struct SliceTally {
  uint64_t opportunities = 0;  // decisions where the ad passed everything but pacing
  uint64_t admitted = 0;       // of those, let through by pacing (a token and the throttle)
  uint64_t served = 0;         // of those, chosen and returned (a token spent)
  uint64_t delivered = 0;      // impressions counted (not duplicates, not invalid traffic)

  SliceTally& operator+=(const SliceTally& other) {
    opportunities += other.opportunities;
    admitted += other.admitted;
    served += other.served;
    delivered += other.delivered;
    return *this;
  }
};

enum class GoalStatus : uint8_t {
  kNotStarted = 0,  // before the flight
  kOnTrack = 1,     // at or ahead of the target, or throttled to stay on it
  kBehind = 2,      // behind the target with every opportunity taken: the traffic is short
  kMet = 3,         // the goal is delivered: the ad serves no more
  kEnded = 4,       // the flight is over (short of the goal when delivered < goal)
};
std::string_view goal_status_name(GoalStatus status);

// What a slice may spend, for the whole node.
struct SlicePlan {
  uint64_t tokens = 0;     // serves allowed in the slice
  double throttle = 0;     // probability an opportunity is let through, in [0, 1]
  uint64_t target = 0;     // impressions that should be counted by the slice's end
  GoalStatus status = GoalStatus::kNotStarted;
};

// How fast the expectations follow the traffic: the weight of the slice just ended.
inline constexpr double kExpectationWeight = 0.3;

struct GoalFlight {
  catalog::DeliveryGoal goal;
  int64_t start_s = 0;
  int64_t end_s = 0;
};

class GoalController {
 public:
  // At a slice boundary: takes in what the slice that ended saw (last), and plans the slice
  // [slice_start_s, slice_end_s).
  SlicePlan plan(const GoalFlight& flight, const SliceTally& last, int64_t slice_start_s, int64_t slice_end_s);

  uint64_t delivered() const { return delivered_; }
  // Restores what earlier slices counted (after a restart, from the recovered totals).
  void set_delivered(uint64_t delivered) { delivered_ = delivered; }
  const SlicePlan& last_plan() const { return last_plan_; }
  // What a slice let through fully would serve, from the moving averages; < 0: unknown.
  double expected_serves() const;
  // Cluster mode: the ledger's answer replaces the last plan's budget and the count
  // (delivered: every node's). The throttle spreads the granted tokens over this node's
  // expected serves; the status is judged on the cluster's count.
  SlicePlan apply_grant(const GoalFlight& flight, uint64_t tokens, uint64_t delivered);

 private:
  // The probability that spends tokens over the slice's expected serves (1 when they are
  // unknown or fewer than the tokens; 0 without tokens).
  double throttle_for(uint64_t tokens) const;

  uint64_t delivered_ = 0;
  double expected_opportunities_ = -1;  // per slice; < 0: no slice seen yet
  double served_per_admitted_ = -1;  // < 0: nothing admitted yet (taken as 1)
  SlicePlan last_plan_;
};

}  // namespace decision::pacing
