#pragma once
// A pacing round's message to one core (pacing_rounds.h): the coordinating core asks each
// core for its tallies, then hands each its allotments. Sent once a slice per core, and
// once more at a catalog swap that brings goals (their allotments only).
#include <cstdint>
#include <vector>

#include "decision/pacing/core_pacing.h"

namespace decision::pacing {

class PacingRounds;

struct PacingAsk {
  using Service = PacingRounds;
  // One round at a time, two messages each way per core: a couple of slots are plenty.
  static constexpr uint32_t kPerPeer = 2;

  // kAllot replaces the core's allotments (a slice's round); kAddAllotments adds those of
  // goals new in a swap to the ones in force.
  enum class Step : uint8_t { kTally, kAllot, kAddAllotments };
  Step step = Step::kTally;
  uint64_t round = 0;
  uint32_t core = 0;  // the core asked
  std::vector<CoreTally> tallies;           // kTally: filled by the core asked
  std::vector<CoreAllotment> allotments;    // kAllot, kAddAllotments: filled by the coordinator
};

}  // namespace decision::pacing
