#pragma once
// The fixed key ring of the tracking drivers (token_fuzz, vast_tag_fuzz): two keys, id 1
// signing and id 2 still trusted, derived from their ids as the unit tests' keys are, and a
// fixed nonce prefix, so a driver mints the same tokens and tags on every run.
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/nonce_sequence.h"

namespace fuzz {

inline constexpr int64_t kIssuedAtS = 1'763'683'200;  // 2025-11-21T00:00:00Z
inline constexpr int64_t kNowS = kIssuedAtS + 1800;   // every driver's clock

inline tracking::KeyEntry fuzz_key(uint16_t id) {
  tracking::KeyEntry entry;
  entry.id = id;
  for (size_t i = 0; i < tracking::kSecretKeyBytes; ++i) {
    entry.aes_key[i] = static_cast<uint8_t>(id * 31 + i);
    entry.hmac_key[i] = static_cast<uint8_t>(id * 17 + 3 * i);
  }
  return entry;
}

inline const tracking::KeyRing& fuzz_ring() {
  static const tracking::KeyRing ring = [] {
    std::vector<tracking::KeyEntry> entries = {fuzz_key(1), fuzz_key(2)};
    absl::StatusOr<tracking::KeyRing> built = tracking::KeyRing::from_entries(std::move(entries));
    if (!built.ok()) std::abort();
    return *std::move(built);
  }();
  return ring;
}

inline tracking::NonceSequence fuzz_nonces() {
  tracking::NoncePrefix prefix;
  for (size_t i = 0; i < prefix.size(); ++i) prefix[i] = static_cast<uint8_t>(0x5a ^ i);
  return tracking::NonceSequence(prefix, 0);
}

}  // namespace fuzz
