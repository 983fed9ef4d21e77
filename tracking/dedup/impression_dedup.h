#pragma once
// The impression tokens this core has counted, so that a token counts once however often it
// is called (docs/caps.md). Single-threaded, one per core: the core that owns a token's
// impression (tracking/impressions/impression_owner.h) is the only one that asks.
//
// A token id is a 64-bit fingerprint of the token's key id and nonce, and nonces never
// repeat (docs/tokens.md), so distinct tokens differ unless two live ids collide: a real
// impression then reads as a repeat with probability about live_tokens / 2^64 per call
// (10^8 live tokens: 5e-12). An entry lives until its token expires (the token is refused
// from then on, so it can never be counted again) and is reclaimed by sweep_step().
// 16 bytes per entry; docs/caps.md gives the measured bytes per live token.
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "caps/sharded_table.h"

namespace tracking::dedup {

class ImpressionDedup {
 public:
  struct Entry {
    uint64_t key = 0;  // the token id (0 is stored as 1)
    uint32_t expires_s = 0;
    uint32_t unused = 0;
    static constexpr uint16_t kStoredBytes = 12;  // key and expiry: snapshots skip the padding
  };
  static_assert(sizeof(Entry) == 16);
  static constexpr uint32_t kShards = caps::ShardedTable<Entry>::kShards;

  // True the first time token_id is seen, which remembers it until expires_s; false for a
  // repeat.
  bool first_sighting(uint64_t token_id, int64_t expires_s, int64_t now_s);
  bool contains(uint64_t token_id, int64_t now_s) const { return table_.find(stored(token_id), now_s) != nullptr; }
  void sweep_step(int64_t now_s, uint32_t max_slots) { table_.sweep_step(now_s, max_slots); }

  uint32_t shard_of(uint64_t token_id) const { return caps::ShardedTable<Entry>::shard_of(stored(token_id)); }
  void serialize_shard(uint32_t shard, int64_t now_s, std::string& out) const {
    table_.serialize_shard(shard, now_s, out);
  }
  absl::Status load_shard(uint32_t shard, std::string_view bytes) { return table_.load_shard(shard, bytes); }

  uint64_t entries() const { return table_.entries(); }
  uint64_t bytes() const { return table_.bytes(); }
  uint64_t reclaimed() const { return table_.reclaimed(); }

 private:
  static uint64_t stored(uint64_t token_id) { return token_id == 0 ? 1 : token_id; }

  caps::ShardedTable<Entry> table_;
};

}  // namespace tracking::dedup
