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
#include "caps/sharded_state.h"
#include "caps/sharded_table.h"

namespace tracking::dedup {

struct DedupEntry {
  uint64_t key = 0;  // the token id (0 is stored as 1)
  uint32_t expires_s = 0;
  uint32_t unused = 0;
  static constexpr uint16_t kStoredBytes = 12;  // key and expiry: snapshots skip the padding
};
static_assert(sizeof(DedupEntry) == 16);

class ImpressionDedup final : public caps::ShardedState<DedupEntry> {
 public:
  using Entry = DedupEntry;

  // True the first time token_id is seen, which remembers it until expires_s; false for a
  // repeat.
  bool first_sighting(uint64_t token_id, int64_t expires_s, int64_t now_s);
  bool contains(uint64_t token_id, int64_t now_s) const { return table_.find(stored(token_id), now_s) != nullptr; }

  uint32_t shard_of(uint64_t token_id) const { return caps::ShardedTable<Entry>::shard_of(stored(token_id)); }

 private:
  static uint64_t stored(uint64_t token_id) { return token_id == 0 ? 1 : token_id; }
};

}  // namespace tracking::dedup
