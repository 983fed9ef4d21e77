#pragma once
// One core's share of the node's delivery goals (docs/pacing.md, "Across cores"): the
// tokens the coordinating core allotted it for the current slice, the throttle, and what
// it saw since the last round (opportunities, admissions, serves, counted impressions).
// Touched by this core only; its tallies leave and its allotments arrive by message
// (pacing_rounds.h), never through shared state. The one thing another core reads is its
// "every goal allotted" flag, for /readyz, relaxed, as the event log's health is read.
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "decision/pacing/goal_controller.h"
#include "decision/pacing/paced_goal.h"
#include "decision/selection/core_random.h"
#include "tracking/impressions/counted_by_ad.h"
#include "tracking/impressions/delivery_listener.h"

namespace decision::pacing {

// A goal's allotment for one core and slice.
struct CoreAllotment {
  uint64_t ad_id = 0;
  uint64_t tokens = 0;
  double throttle = 0;
  // For explain and metrics: where the node stood when the slice was planned.
  uint64_t goal = 0;
  uint64_t delivered = 0;
  uint64_t target = 0;
  GoalStatus status = GoalStatus::kNotStarted;
};

struct CoreTally {
  uint64_t ad_id = 0;
  SliceTally tally;
};

// A paced ad as this core sees it now.
struct CoreGoalView {
  bool allotted = false;  // false: no round has allotted it yet (it is not served)
  uint64_t tokens_left = 0;
  double throttle = 0;
  uint64_t goal = 0;
  uint64_t delivered = 0;  // node-wide, at the slice's start
  uint64_t target = 0;     // by the slice's end
  GoalStatus status = GoalStatus::kNotStarted;
  SliceTally since_round;  // this core's, since the last round
};

class CorePacing final : public tracking::impressions::DeliveryListener {
 public:
  // Whether pacing lets this opportunity through: the ad passed everything else. Counts the
  // opportunity; an ad not yet allotted anything (new since the last round) is kept out.
  // goal_index: the ad's DeliveryGoal::index in the catalog the decision is made on.
  bool admit(uint64_t ad_id, uint32_t goal_index, selection::CoreRandom& random);
  // Like admit, without counting or drawing: for explain and metrics. Empty when the book
  // holds no such goal.
  std::optional<CoreGoalView> view(uint64_t ad_id) const;
  // The ad was chosen and returned: one token spent.
  void served(uint64_t ad_id, uint32_t goal_index);
  // An impression of the ad was counted on this core. Ads without an allotment are not
  // paced (every core is allotted every goal each round, and an ad is served only once
  // allotted), so nothing of a goal is lost.
  void counted(uint64_t ad_id) override;

  // At start, on the coordinating core: impressions counted before (the event logs'
  // counts by ad), reported with the first round's tallies.
  void restore(const tracking::impressions::CountedByAd& counted);

  // The goals of the catalog this core serves (at start and at each swap), in the
  // catalog's goal order (goal i has DeliveryGoal::index i): what they count is kept from
  // now on, allotted or not, so that no impression is lost before a round. Goals of the
  // catalog before stay until a round neither allots them nor finds a tally of theirs.
  void set_goals(std::span<const PacedGoal> goals);

  // A round, on this core: what was seen since the last one, then zeroed.
  void take_tallies(std::vector<CoreTally>& out);
  // The round's allotments, which replace the last ones; an ad no longer listed is not
  // served, and is dropped once it is not a goal of this core's catalog either.
  void apply(std::span<const CoreAllotment> allotments);
  // A round for goals new in a catalog swap: their allotments join the ones in force, which
  // stay as they are until the next slice's round.
  void add(std::span<const CoreAllotment> allotments);
  // Whether every goal of this core's catalog holds an allotment (readiness, docs/pacing.md):
  // written by this core at set_goals, apply and add; read by any core, relaxed, as a
  // gauge is.
  bool every_goal_allotted() const { return every_goal_allotted_.load(std::memory_order_relaxed); }

  size_t goals() const { return decisions_.size(); }
  // The goals' ad ids, ascending (metrics list the first ones).
  std::span<const uint64_t> ad_ids() const { return ad_ids_; }

 private:
  static constexpr uint32_t kNoGoal = UINT32_MAX;

  // What a decision reads and writes of a goal, dense and apart from the rest, so that a
  // paced candidate costs one cache line rather than a hash probe into wide records (a
  // catalog can hold 100,000 goals).
  struct DecisionSide {
    uint64_t ad_id = 0;
    uint64_t tokens_left = 0;
    double throttle = 0;
    uint64_t opportunities = 0;  // since the last round, as admitted and served
    uint64_t admitted = 0;
    uint64_t served = 0;
  };
  // The rest of a goal: the round's figures, and impressions counted since the last round.
  struct RoundSide {
    bool allotted = false;
    uint64_t goal = 0;
    uint64_t delivered = 0;
    uint64_t target = 0;
    GoalStatus status = GoalStatus::kNotStarted;
    uint64_t delivered_since_round = 0;
  };

  // Where the goal of ad_id sits: at goal_index when that is still its place, else found
  // by id (a decision begun on the catalog before a swap, a goal of an earlier catalog).
  uint32_t position_of(uint64_t ad_id, uint32_t goal_index) const;
  uint32_t position_by_id(uint64_t ad_id) const;
  uint32_t append(uint64_t ad_id);
  // Goals of earlier catalogs (after the catalog's own) go once a round neither allotted
  // them nor found a tally of theirs; the rest move up.
  void drop_idle_leftovers();
  void list_ad_ids();
  void note_allotted();
  // The allotment a round gave one goal; what this core saw since its tally stays, for the
  // next round.
  void allot(const CoreAllotment& allotment);

  // By position: [0, catalog_goals_) the catalog's goals at their DeliveryGoal::index,
  // then goals of earlier catalogs still allotted or with something to report.
  std::vector<DecisionSide> decisions_;
  std::vector<RoundSide> rounds_;
  absl::flat_hash_map<uint64_t, uint32_t> position_by_ad_;
  uint32_t catalog_goals_ = 0;
  std::vector<uint64_t> ad_ids_;
  tracking::impressions::CountedByAd restored_;  // until the first round takes it
  std::atomic<bool> every_goal_allotted_{true};  // no catalog, no goal
};

}  // namespace decision::pacing
