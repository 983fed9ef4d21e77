#pragma once
// Who a user is to the cap store, and which core owns them (DESIGN section 1: user u belongs
// to core hash(u) % cores). The key is persisted (snapshots) and recomputed from the event
// log at start, so the hash and its seed must never change.
#include <cstdint>
#include <string_view>

namespace caps {

// XXH3 (Debian's libxxhash) with a fixed seed: fast on short ids, stable across processes
// and machines. Not keyed: a client who crafts ids that collide only merges its own users'
// counts, which makes capping stricter for them, never looser.
uint64_t user_key(std::string_view user_id);

// Multiply-shift on the key's high half: uniform over cores, and independent of the low
// bits that pick a user's shard inside a partition.
inline uint32_t owner_core(uint64_t key, uint32_t cores) {
  return static_cast<uint32_t>(((key >> 32) * cores) >> 32);
}

}  // namespace caps
