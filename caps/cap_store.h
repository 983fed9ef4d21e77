#pragma once
// The one interface decisions and impressions use for frequency-cap state (docs/caps.md,
// "The store"). The in-process store is CapPartition, one per core; a store shared by several
// nodes can replace it without touching the decision code.
#include <cstdint>
#include <span>

namespace caps {

// One of an ad's frequencyCaps: at most `impressions` in any `window_s` seconds.
struct CapRule {
  uint32_t impressions = 0;
  uint32_t window_s = 0;
};

class CapStore {
 public:
  virtual ~CapStore() = default;
  // Whether every cap still allows one more impression of ad_id for the user at now_s.
  virtual bool allows(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) = 0;
  // Counts one impression at now_s against every cap of the ad.
  virtual void record(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) = 0;
  // What allows() reads, for explaining a decision (decision/explain/): counts[i] is the
  // number of impressions cap i counts in its window at now_s, as allows() judges it (a cap
  // blocks when its count reaches its impressions). counts.size() == caps.size(). Reads only.
  virtual void count(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
                     std::span<uint64_t> counts) const = 0;
};

}  // namespace caps
