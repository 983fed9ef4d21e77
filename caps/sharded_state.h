#pragma once
// What every per-core state kept in one ShardedTable offers besides its own operations: the
// sweep that reclaims dead entries a few slots at a time, the shard-by-shard snapshot and
// load (tracking/state/), and the sizes /metrics exports. The cap partition and the
// impression dedup set are both such a state; each adds its own look-ups on table_.
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "caps/sharded_table.h"

namespace caps {

template <typename Entry>
class ShardedState {
 public:
  static constexpr uint32_t kShards = ShardedTable<Entry>::kShards;

  // Reclaims dead entries, visiting at most max_slots slots.
  void sweep_step(int64_t now_s, uint32_t max_slots) { table_.sweep_step(now_s, max_slots); }

  void serialize_shard(uint32_t shard, int64_t now_s, std::string& out) const {
    table_.serialize_shard(shard, now_s, out);
  }
  absl::Status load_shard(uint32_t shard, std::string_view bytes) { return table_.load_shard(shard, bytes); }

  uint64_t entries() const { return table_.entries(); }
  uint64_t bytes() const { return table_.bytes(); }
  uint64_t reclaimed() const { return table_.reclaimed(); }

 protected:
  ShardedTable<Entry> table_;
};

}  // namespace caps
