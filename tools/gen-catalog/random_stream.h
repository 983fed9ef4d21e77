#pragma once
// The generator's randomness: std::mt19937_64, whose output sequence the standard fixes,
// with our own distributions on top. std::uniform_int_distribution and its siblings are
// left to each standard library, so with them one seed would give one catalog under
// libstdc++ and another under libc++.
#include <algorithm>
#include <cstdint>
#include <random>
#include <span>
#include <unordered_set>
#include <vector>

#include "runtime/check.h"

namespace tools::gen_catalog {

class RandomStream {
 public:
  explicit RandomStream(uint64_t seed) : engine_(seed) {}

  // Uniform in [0, n), n > 0. Draws below 2^64 mod n are redrawn, so that every residue
  // has the same number of preimages: no modulo bias, even for large n.
  uint64_t below(uint64_t n) {
    DECISIOND_CHECK_MSG(n > 0, "a draw from an empty range");
    const uint64_t short_bucket = (0 - n) % n;
    for (;;) {
      const uint64_t r = engine_();
      if (r >= short_bucket) return r % n;
    }
  }

  // Uniform in [lo, hi], lo <= hi < 2^64 - 1.
  uint64_t between(uint64_t lo, uint64_t hi) { return lo + below(hi - lo + 1); }

  // Uniform in [0, 1): the top 53 bits, exactly representable.
  double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

  // True with probability p; p <= 0 never, p >= 1 always.
  bool chance(double p) { return unit() < p; }

  template <typename T>
  const T& pick(std::span<const T> items) {
    return items[below(items.size())];
  }

  // Index i with probability weights[i] / sum(weights); the sum is positive.
  size_t weighted(std::span<const uint32_t> weights) {
    uint64_t total = 0;
    for (uint32_t w : weights) total += w;
    uint64_t r = below(total);
    for (size_t i = 0; i < weights.size(); ++i) {
      if (r < weights[i]) return i;
      r -= weights[i];
    }
    DECISIOND_CHECK_MSG(false, "a weighted draw past the sum of the weights");
    return weights.size() - 1;
  }

  // k distinct values of [0, n), ascending, k <= n. Floyd's algorithm: exactly k draws
  // whatever k and n, so a long tail of rejections never slows a dense pick.
  std::vector<uint32_t> distinct(uint32_t k, uint32_t n) {
    DECISIOND_CHECK_MSG(k <= n, "more distinct values asked than the range holds");
    std::vector<uint32_t> chosen;
    chosen.reserve(k);
    // A scan is fastest for the few values most calls ask for; past that, a set keeps a
    // 1024-placement ad from costing a million comparisons. Both give the same values.
    std::unordered_set<uint32_t> taken_set;
    const bool use_set = k > kScanMax;
    for (uint32_t j = n - k; j < n; ++j) {
      const auto t = static_cast<uint32_t>(below(uint64_t{j} + 1));
      const bool taken = use_set ? !taken_set.insert(t).second
                                 : std::find(chosen.begin(), chosen.end(), t) != chosen.end();
      const uint32_t value = taken ? j : t;
      if (use_set && taken) taken_set.insert(j);
      chosen.push_back(value);
    }
    std::sort(chosen.begin(), chosen.end());
    return chosen;
  }

 private:
  static constexpr uint32_t kScanMax = 16;

  std::mt19937_64 engine_;
};

// Seeds of independent streams from one user seed (SplitMix64's finaliser): the stream a
// part of the catalog draws from is named, so adding draws to one part leaves the others'
// output as it was.
inline uint64_t stream_seed(uint64_t seed, uint64_t stream) {
  uint64_t z = seed + 0x9e3779b97f4a7c15ull * (stream + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace tools::gen_catalog
