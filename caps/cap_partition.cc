#include "caps/cap_partition.h"

#include <algorithm>

#include "caps/pending_serves.h"

namespace caps {

bool CapPartition::allows(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) const {
  const auto find = [&](uint64_t key) { return table_.find(key, now_s); };
  return caps_allow(find, user_key, ad_id, caps, now_s, pending(user_key, ad_id, now_s));
}

void CapPartition::count(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
                         std::span<uint64_t> counts) const {
  const auto find = [&](uint64_t key) { return table_.find(key, now_s); };
  count_caps(find, user_key, ad_id, caps, now_s, counts);
}

uint32_t CapPartition::pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) const {
  // Without a serve window no pending entry is ever written: skip the look-ups.
  if (serve_window_s_ <= 0) return 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < kPendingEntries; ++i) {
    if (const Entry* e = table_.find(pending_key(user_key, ad_id, i), now_s); e != nullptr) n += pending_in(*e, now_s);
  }
  return n;
}

void CapPartition::record(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) {
  uint32_t longest_recent_window_s = 0;
  for (const CapRule& cap : caps) {
    if (!is_bucketed(cap)) {
      longest_recent_window_s = std::max(longest_recent_window_s, cap.window_s);
      continue;
    }
    bool created = false;
    Entry* e = table_.insert(bucketed_key(user_key, ad_id, cap), now_s, created);
    record_bucketed(*e, cap, created, now_s);
  }
  if (longest_recent_window_s == 0) return;
  bool created = false;
  Entry* e = table_.insert(recent_key(user_key, ad_id), now_s, created);
  record_recent(*e, longest_recent_window_s, now_s);
}

void CapPartition::add_pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) {
  if (serve_window_s_ <= 0) return;
  const auto lapses_s = static_cast<uint32_t>(std::clamp<int64_t>(now_s + serve_window_s_, 1, UINT32_MAX));
  for (uint32_t i = 0; i < kPendingEntries; ++i) {
    bool created = false;
    Entry* e = table_.insert(pending_key(user_key, ad_id, i), now_s, created);
    if (add_pending_serve(*e, lapses_s, now_s)) return;
  }
  // kMaxPending serves of this ad already pending for the user: past the bound a serve is
  // not held (docs/caps.md).
}

void CapPartition::clear_pending(uint64_t user_key, uint64_t ad_id, int64_t issued_s, int64_t now_s) {
  if (serve_window_s_ <= 0) return;
  const auto bound_s = static_cast<uint32_t>(std::clamp<int64_t>(issued_s + serve_window_s_, 0, UINT32_MAX));
  // The earliest qualifying serve across the entries, as if they were one list. Its entry
  // is looked up again to write: an insert may move a shard's entries.
  uint64_t best_key = 0;
  uint32_t best_lapses_s = UINT32_MAX;
  for (uint32_t i = 0; i < kPendingEntries; ++i) {
    const Entry* found = table_.find(pending_key(user_key, ad_id, i), now_s);
    if (found == nullptr) continue;
    const uint32_t first = earliest_pending(*found, bound_s, now_s);
    if (first != 0 && first < best_lapses_s) {
      best_lapses_s = first;
      best_key = found->key;
    }
  }
  if (best_key == 0) return;
  bool created = false;
  clear_pending_serve(*table_.insert(best_key, now_s, created), bound_s, now_s);
}

}  // namespace caps
