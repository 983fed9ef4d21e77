#include "caps/user_key.h"

#include <xxhash.h>

namespace caps {

namespace {
// Persisted through snapshots and recomputed from logs: never change it.
constexpr uint64_t kUserKeySeed = 0x6465636973696f6eull;  // "decision"
}  // namespace

uint64_t user_key(std::string_view user_id) {
  return XXH3_64bits_withSeed(user_id.data(), user_id.size(), kUserKeySeed);
}

}  // namespace caps
