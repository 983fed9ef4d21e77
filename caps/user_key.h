#pragma once
// Who a user is to the cap store, and which core owns them (docs/caps.md: user u belongs
// to core hash(u) % cores). The key is persisted (snapshots) and recomputed from the event
// log at start, so the hash and its seed must never change.
#include <cstdint>
#include <string_view>

namespace caps {

// XXH3 (Debian's libxxhash) with a fixed seed: fast on short ids, stable across processes
// and machines. Not keyed: a client who crafts ids that collide only merges its own users'
// counts, which makes capping stricter for them, never looser.
uint64_t user_key(std::string_view user_id);

// A partition is 1024 shards picked by the key's low 10 bits (sharded_table.h), and a shard
// belongs to core shard % cores: so a change of --cores moves whole shards between cores,
// which is what lets start-up hand a snapshot's shards to their new owners. (With a core
// count that does not divide 1024 the shares differ by one shard in 1024/cores.)
inline constexpr uint32_t kOwnerShards = 1024;
inline uint32_t owner_core(uint64_t key, uint32_t cores) {
  return static_cast<uint32_t>(key & (kOwnerShards - 1)) % cores;
}

}  // namespace caps
