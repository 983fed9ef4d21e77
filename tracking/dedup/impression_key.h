#pragma once
// The dedup set's key of an impression token: the token id with its low bits replaced by
// the user's (caps::user_key), so the entry lands in the same shard, hence on the same
// core, as the user's caps: a shard of both tables is then one unit for snapshots and for
// moving shards when --cores changes. Without a user id, the token id as it is. The 54 bits
// left of the id keep the false-positive rate at (live tokens of the same shard) / 2^54,
// the same (live tokens) / 2^64 overall.
#include <cstdint>
#include <optional>

#include "caps/user_key.h"

namespace tracking::dedup {

inline uint64_t impression_key(std::optional<uint64_t> user_key, uint64_t token_id) {
  if (!user_key) return token_id;
  constexpr uint64_t kLow = caps::kOwnerShards - 1;
  return (token_id & ~kLow) | (*user_key & kLow);
}

}  // namespace tracking::dedup
