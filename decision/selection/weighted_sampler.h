#pragma once
// Weighted random sampling without replacement within one priority tier: each draw
// picks an eligible candidate with probability weight / (sum of the eligible weights
// left), then removes it. A tier holds a few hundred candidates at most and a request
// wants at most 10, so a linear scan per draw beats anything cleverer; it allocates
// nothing (the caller lends the scratch space).
#include <cstdint>
#include <span>

#include "decision/selection/core_random.h"

namespace decision::selection {

class WeightedSampler {
 public:
  // weights: one per candidate; 0 means not eligible. scratch: at least weights.size().
  // Writes up to out.size() distinct candidate indexes into out, in draw order, and
  // returns how many (fewer when fewer are eligible).
  static uint32_t draw(std::span<const uint32_t> weights, std::span<uint32_t> scratch,
                       std::span<uint32_t> out, CoreRandom& random);
};

}  // namespace decision::selection
