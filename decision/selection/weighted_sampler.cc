#include "decision/selection/weighted_sampler.h"

#include <algorithm>

#include "runtime/check.h"

namespace decision::selection {

uint32_t WeightedSampler::draw(std::span<const uint32_t> weights, std::span<uint32_t> scratch,
                               std::span<uint32_t> out, CoreRandom& random) {
  DECISIOND_CHECK_MSG(scratch.size() >= weights.size(), "sampler scratch smaller than the weights");
  uint64_t total = 0;
  for (size_t i = 0; i < weights.size(); ++i) {
    scratch[i] = weights[i];
    total += weights[i];
  }
  uint32_t drawn = 0;
  while (drawn < out.size() && total > 0) {
    uint64_t target = random.below(total);
    size_t chosen = 0;
    for (; chosen < weights.size(); ++chosen) {
      if (target < scratch[chosen]) break;
      target -= scratch[chosen];
    }
    DECISIOND_CHECK_MSG(chosen < weights.size(), "a weighted draw past the sum of the weights");
    out[drawn++] = static_cast<uint32_t>(chosen);
    total -= scratch[chosen];
    scratch[chosen] = 0;  // without replacement
  }
  return drawn;
}

}  // namespace decision::selection
