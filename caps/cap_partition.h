#pragma once
// One core's frequency-cap state (docs/caps.md): windowed impression counts per
// (user, ad) for every cap of the ad, for the users this core owns. Single-threaded.
//
// Entries (32 bytes each, in a ShardedTable keyed so that all of a user's entries share a
// shard):
//   - "recent" entry per (user, ad): the 5 latest impression times. It answers every cap
//     with impressions <= 5 exactly: such a cap {n, W} holds when fewer than n of them fall
//     in the last W seconds, and the n-th latest is the only one that matters.
//   - "bucketed" entry per (user, ad, cap) for each cap with impressions > 5: the counts of
//     8 consecutive buckets ceil(W/7) seconds wide, the newest holding now (so the 7 before
//     it span the whole window). The window's count is the sum of every bucket that
//     overlaps the last W seconds, a partly covered oldest bucket counted whole: it can only
//     over-count, by at most that bucket's impressions, so the ad may be held back for up to
//     W/7 longer than an exact count would, and is never served more than n times in any
//     window. Counts saturate at 65,535 per bucket (a saturated bucket blocks).
// Keys are 64-bit fingerprints of (user key, ad id, cap); two entries whose fingerprints
// collide share counts, which can only make capping stricter. docs/caps.md has the
// arithmetic.
//
//   - "pending" entries per (user, ad) with a serve window: serves not yet impressed
//     (pending_serves.h).
// The arithmetic on an entry is cap_windows.h, shared with the Redis Cluster store.
//
// Memory: entries live until their newest impression has left the longest window they
// serve; sweep_step() reclaims dead ones a few slots at a time.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "caps/cap_store.h"
#include "caps/cap_windows.h"
#include "caps/sharded_state.h"
#include "caps/sharded_table.h"
#include "caps/user_key.h"

namespace caps {

class CapPartition final : public CapStore, public ShardedState<CapEntry> {
 public:
  static constexpr uint32_t kRecentImpressions = caps::kRecentImpressions;
  static constexpr uint32_t kBuckets = caps::kBuckets;
  static constexpr uint64_t kSaturatedCount = caps::kSaturatedCount;
  using Entry = CapEntry;
  static_assert(kShards == kOwnerShards, "owner_core() hands out whole shards");

  // --cap-serve-window: how long a served capped ad stays pending (0: serves never are).
  void set_serve_window(int64_t serve_window_s) { serve_window_s_ = serve_window_s; }

  bool allows(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) const override;
  void count(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
             std::span<uint64_t> counts) const override;
  uint32_t pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) const override;
  void record(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) override;
  void add_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) override;
  void clear_pending(uint64_t user_key, uint64_t ad_id, int64_t issued_s, int64_t now_s) override;

  uint32_t shard_of(uint64_t user_key) const { return ShardedTable<Entry>::shard_of(user_key); }

 private:
  int64_t serve_window_s_ = 0;
};

}  // namespace caps
