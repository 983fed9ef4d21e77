#pragma once
// The interfaces decisions and impressions use for frequency-cap state (docs/caps.md, "The
// stores"). CapReader is what a decision and an explanation read; CapStore adds what a
// served ad and a counted impression write. The in-process store is CapPartition, one per
// core. The Redis Cluster store (caps/redis_store/) reads a user's state in one round trip
// into a CapReader over what came back, and writes through atomic steps on the cluster.
#include <cstdint>
#include <span>

namespace caps {

// One of an ad's frequencyCaps: at most `impressions` in any `window_s` seconds.
struct CapRule {
  uint32_t impressions = 0;
  uint32_t window_s = 0;
};

class CapReader {
 public:
  virtual ~CapReader() = default;
  // Whether every cap still allows one more impression of ad_id for the user at now_s:
  // impressions counted in the cap's window plus serves still pending stay below it.
  virtual bool allows(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) const = 0;
  // What allows() reads, for explaining a decision (decision/explain/): counts[i] is the
  // number of impressions cap i counts in its window at now_s, as allows() judges it (a cap
  // blocks when its count plus pending() reaches its impressions). counts.size() ==
  // caps.size().
  virtual void count(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
                     std::span<uint64_t> counts) const = 0;
  // Serves of the ad to the user still pending at now_s (0 without a serve window).
  virtual uint32_t pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) const = 0;
};

class CapStore : public CapReader {
 public:
  // Counts one impression at now_s against every cap of the ad.
  virtual void record(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) = 0;
  // A capped ad served at now_s: pending until its impression or the serve window ends.
  // Nothing without a serve window.
  virtual void add_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) = 0;
  // The impression of a serve issued at issued_s arrived: its pending serve ends.
  virtual void clear_pending(uint64_t user_key, uint64_t ad_id, int64_t issued_s, int64_t now_s) = 0;
};

}  // namespace caps
