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
#include "decision/pacing/goal_ledger.h"

namespace decision::pacing {

class NodePacing {
 public:
  explicit NodePacing(uint32_t cores) : cores_(cores) {}

  // One core's tallies since the last round.
  void add(uint32_t core, std::span<const CoreTally> tallies);
  // Plans [slice_start_s, slice_end_s) for goals from the tallies added since the last
  // plan; allotments[core] gets every goal's share for that core.
  void plan(std::span<const PacedGoal> goals, int64_t slice_start_s, int64_t slice_end_s,
            std::vector<std::vector<CoreAllotment>>& allotments);

  // Cluster mode (a ledger shared by the nodes), after plan(): what this node asks the
  // ledger for one goal of the plan (what its logs have counted of it in all, and tokens),
  // and the ledger's answer, which replaces the node's own budget: the grant split among the
  // cores as plan() split the node's, the node-wide count made the cluster's. A goal the
  // ledger did not answer for is granted nothing; its total is reported again next round.
  LeaseRequest lease_request(const PacedGoal& goal, int64_t slice_start_s, int64_t interval_s) const;
  // index: the goal's place in the goals plan() was given.
  void apply_grant(size_t index, const PacedGoal& goal, int64_t slice_id, const LeaseGrant* granted,
                   std::vector<std::vector<CoreAllotment>>& allotments);

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
  // Cluster mode: per goal, what this node's logs have counted of it in all (the logs at
  // start, then every round's tallies), what the ledger has not been told yet (served here
  // since the last report, the last grant to settle) and the cores' opportunity weights of
  // the last plan, to split a grant as the plan was split.
  struct Unreported {
    uint64_t delivered_total = 0;
    uint64_t served = 0;
    int64_t granted_slice = 0;
    uint64_t granted = 0;
    std::vector<uint64_t> weights;
  };
  absl::flat_hash_map<uint64_t, Unreported> ledger_;
};

// tokens split over cores in proportion to weights (each weight plus one, so that a core
// that saw nothing last slice still gets a share), the rounding given to the heaviest.
void split_tokens(uint64_t tokens, std::span<const uint64_t> weights, std::span<uint64_t> out);

}  // namespace decision::pacing
