#pragma once
// The dedup set's key of an impression: its identity with its low bits replaced by
// the user's (caps::user_key), so the entry lands in the same shard, hence on the same
// core, as the user's caps: a shard of both tables is then one unit for snapshots and for
// moving shards when --cores changes. Without a user id, the token id as it is. The 54 bits
// left of the id keep the false-positive rate at (live tokens of the same shard) / 2^54,
// the same (live tokens) / 2^64 overall.
#include <xxhash.h>

#include <cstdint>
#include <cstring>
#include <optional>

#include "caps/user_key.h"
#include "tracking/tokens/tracking_event.h"

namespace tracking::dedup {

// The identity of an impression: the served ad it is for, (request id, ad, creative,
// placement), hashed with XXH3-64 unseeded (it is persisted: event log, snapshots). An ad
// is served at most once per decision request, so this names one impression opportunity:
// the tokens of one served ad count once between them, not once each. That matters where
// one served ad gets several impression tokens: every fetch of a VAST tag seals its
// document's tokens anew, and a player that fetches a tag twice and fires both
// impressions has still shown the ad once.
inline uint64_t impression_identity(const TrackingEvent& event) {
  uint8_t bytes[16 + 3 * 8];
  std::memcpy(bytes, event.request_id.data(), 16);
  for (int i = 0; i < 8; ++i) {
    bytes[16 + i] = static_cast<uint8_t>(event.ad_id >> (8 * i));
    bytes[24 + i] = static_cast<uint8_t>(event.creative_id >> (8 * i));
    bytes[32 + i] = static_cast<uint8_t>(event.placement_id >> (8 * i));
  }
  return XXH3_64bits(bytes, sizeof(bytes));
}

inline uint64_t impression_key(std::optional<uint64_t> user_key, uint64_t token_id) {
  if (!user_key) return token_id;
  constexpr uint64_t kLow = caps::kOwnerShards - 1;
  return (token_id & ~kLow) | (*user_key & kLow);
}

}  // namespace tracking::dedup
