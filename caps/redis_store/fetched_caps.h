#pragma once
// One user's cap state as the Redis Cluster store returned it (HGETALL of the user's hash,
// redis_keys.h), read by a decision or an explanation as any CapReader: the same entries
// as the in-process store, so caps/cap_windows.h gives the same answers.
//
// Reused from read to read: a warm core decodes without allocating while a user holds no
// more entries than any user before.
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "caps/cap_store.h"
#include "caps/cap_windows.h"

namespace caps::redis_store {

class FetchedCaps final : public CapReader {
 public:
  // Starts a new user's state.
  void clear(uint64_t user_key);
  // One field of the user's hash and its value; false for a field or value of a shape the
  // store never writes (skipped: a newer writer's field must not break an older reader).
  bool add_field(std::string_view field, std::string_view value, int64_t now_s);

  // count impressions of the ad this core keeps for the store (caps/kept_impressions.h):
  // pending until they are applied, as a serve in its window is.
  void add_kept(uint64_t ad_id, uint32_t count);

  uint64_t user_key() const { return user_key_; }
  size_t entries() const { return entries_.size(); }

  bool allows(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) const override;
  void count(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
             std::span<uint64_t> counts) const override;
  uint32_t pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) const override;

 private:
  const CapEntry* find(uint64_t key, int64_t now_s) const;

  uint64_t user_key_ = 0;
  std::vector<CapEntry> entries_;
  // (ad, lapse time) of every serve still pending when the state was read, and of every
  // impression kept (lapsing never while this state is read).
  std::vector<std::pair<uint64_t, uint32_t>> pending_;
};

}  // namespace caps::redis_store
