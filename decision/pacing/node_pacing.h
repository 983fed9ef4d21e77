#pragma once
// The node's delivery goals, run by its coordinating core (docs/pacing.md, "Across
// cores"): once a slice, every core's tallies are summed, each goal's controller plans the
// slice, and its tokens are split among the cores by their share of the goal's
// opportunities in the slice that ended. Pure: the messages that carry tallies and
// allotments are pacing_rounds.h's.
#include <cstdint>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "decision/pacing/core_pacing.h"
#include "decision/pacing/goal_controller.h"

namespace decision::pacing {

// A goal as the catalog in force states it.
struct PacedGoal {
  uint64_t ad_id = 0;
  GoalFlight flight;
};

// A goal's state for metrics and explain, as the last plan left it.
struct GoalReport {
  uint64_t ad_id = 0;
  uint64_t goal = 0;
  uint64_t delivered = 0;
  SlicePlan plan;
};

class NodePacing {
 public:
  explicit NodePacing(uint32_t cores) : cores_(cores) {}

  // One core's tallies since the last round.
  void add(uint32_t core, std::span<const CoreTally> tallies);
  // Plans [slice_start_s, slice_end_s) for goals from the tallies added since the last
  // plan; allotments[core] gets every goal's share for that core.
  void plan(std::span<const PacedGoal> goals, int64_t slice_start_s, int64_t slice_end_s,
            std::vector<std::vector<CoreAllotment>>& allotments);

  const std::vector<GoalReport>& reports() const { return reports_; }
  // What a goal has counted so far (0 when unknown).
  uint64_t delivered(uint64_t ad_id) const;

 private:
  struct RoundSums {
    SliceTally node;
    std::vector<uint64_t> opportunities_by_core;
  };

  uint32_t cores_;
  absl::flat_hash_map<uint64_t, GoalController> controllers_;
  absl::flat_hash_map<uint64_t, RoundSums> round_;
  std::vector<GoalReport> reports_;
};

// tokens split over cores in proportion to weights (each weight plus one, so that a core
// that saw nothing last slice still gets a share), the rounding given to the heaviest.
void split_tokens(uint64_t tokens, std::span<const uint64_t> weights, std::span<uint64_t> out);

}  // namespace decision::pacing
