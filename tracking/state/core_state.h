#pragma once
// What one core owns of the durable state: its users' frequency caps, the impression
// tokens it has counted and how many it has counted of each ad. Rebuilt at start (recovery.h), snapshotted while serving
// (snapshot_writer.h).
#include <cstdint>
#include <memory>

#include "caps/cap_partition.h"
#include "tracking/dedup/impression_dedup.h"
#include "tracking/impressions/counted_by_ad.h"

namespace tracking::state {

// Both tables shard by the same low bits (the user's, or for an impression without a user
// the token's: tracking/impressions/impression_owner.h), so shard s of both is one unit: it is
// owned by core s % cores and snapshotted in one step.
inline constexpr uint32_t kShards = caps::CapPartition::kShards;
static_assert(kShards == dedup::ImpressionDedup::kShards);

inline uint32_t shard_owner(uint32_t shard, uint32_t cores) { return shard % cores; }

struct CoreState {
  std::unique_ptr<caps::CapPartition> caps = std::make_unique<caps::CapPartition>();
  std::unique_ptr<dedup::ImpressionDedup> dedup = std::make_unique<dedup::ImpressionDedup>();
  uint64_t next_seq = 0;  // of this core's event log
  // Impressions this core's log has counted, by ad, over its whole life (delivery goals).
  impressions::CountedByAd counted_by_ad;
};

}  // namespace tracking::state
