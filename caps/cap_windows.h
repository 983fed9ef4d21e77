#pragma once
// The arithmetic of windowed cap counts on one 32-byte entry (docs/caps.md), shared by every
// cap store: the in-process partition keeps entries in its tables, the Redis Cluster store
// keeps the same bytes in a user's hash and reads them back here. One definition of "how
// many impressions does this cap count now" keeps the two stores' answers equal.
//
//   - recent entry per (user, ad): the 5 latest impression times, newest first (0 = none);
//     exact for every cap with impressions <= 5;
//   - bucketed entry per (user, ad, cap) for a cap with impressions > 5: the start of its
//     oldest bucket, then 8 uint16 counts of buckets ceil(W/7) seconds wide;
//   - pending entries per (user, ad) when a serve window is set: up to 5 times each at
//     which a served ad stops counting as pending (pending_serves.h).
#include <cstdint>
#include <span>

#include "caps/cap_store.h"

namespace caps {

struct CapEntry {
  uint64_t key = 0;
  uint32_t expires_s = 0;
  // Recent: impression times (unix seconds), newest first, 0 = none. Bucketed: words[0] is
  // the start of bucket 0 (seconds); words[1..4] hold 8 uint16 counts, oldest first.
  // Pending: the times at which each pending serve lapses, 0 = none.
  uint32_t words[5] = {};
  static constexpr uint16_t kStoredBytes = 32;  // all of it
};
static_assert(sizeof(CapEntry) == 32);

inline constexpr uint32_t kRecentImpressions = 5;
inline constexpr uint32_t kBuckets = 8;
// A saturated bucket counts as this: it blocks whatever the cap.
inline constexpr uint64_t kSaturatedCount = UINT64_MAX;

// The 64-bit names of a user's entries: hashes of what they count, with the user's 10 shard
// bits, so every entry of a user lives in the user's shard. Never 0 (the empty slot).
uint64_t recent_key(uint64_t user_key, uint64_t ad_id);
uint64_t bucketed_key(uint64_t user_key, uint64_t ad_id, const CapRule& cap);
uint64_t pending_key(uint64_t user_key, uint64_t ad_id, uint32_t index);

inline bool is_bucketed(const CapRule& cap) { return cap.impressions > kRecentImpressions; }
// The newest bucket holds now, so only the 7 before it are whole: they must span the window.
uint32_t bucket_width_s(const CapRule& cap);

// Impressions of a recent entry in the last window_s seconds.
uint32_t recent_in_window(const CapEntry& e, uint32_t window_s, int64_t now_s);
// A bucketed entry's count for its cap's window, a partly covered oldest bucket whole;
// kSaturatedCount when a bucket it reads is saturated.
uint64_t bucketed_in_window(const CapEntry& e, const CapRule& cap, int64_t now_s);

// Counting one impression at now_s into an entry (created: the entry was absent or dead,
// and is zeroed but for its key).
void record_recent(CapEntry& e, uint32_t longest_window_s, int64_t now_s);
void record_bucketed(CapEntry& e, const CapRule& cap, bool created, int64_t now_s);

// A store's entries, looked up by key: null when absent or dead at now_s.
template <typename Find>
concept EntryFinder = requires(Find find, uint64_t key) {
  { find(key) } -> std::convertible_to<const CapEntry*>;
};

// counts[i]: what cap i counts now, as allows() judges it. counts.size() == caps.size().
template <EntryFinder Find>
void count_caps(const Find& find, uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
                std::span<uint64_t> counts) {
  const CapEntry* recent = nullptr;
  bool recent_looked_up = false;
  for (size_t i = 0; i < caps.size() && i < counts.size(); ++i) {
    const CapRule& cap = caps[i];
    if (!is_bucketed(cap)) {
      if (!recent_looked_up) {
        recent = find(recent_key(user_key, ad_id));
        recent_looked_up = true;
      }
      counts[i] = recent == nullptr ? 0 : recent_in_window(*recent, cap.window_s, now_s);
      continue;
    }
    const CapEntry* e = find(bucketed_key(user_key, ad_id, cap));
    counts[i] = e == nullptr ? 0 : bucketed_in_window(*e, cap, now_s);
  }
}

// Whether every cap allows one more impression: counted plus pending below its impressions.
template <EntryFinder Find>
bool caps_allow(const Find& find, uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
                uint64_t pending) {
  const CapEntry* recent = nullptr;
  bool recent_looked_up = false;
  for (const CapRule& cap : caps) {
    uint64_t counted = 0;
    if (!is_bucketed(cap)) {
      if (!recent_looked_up) {
        recent = find(recent_key(user_key, ad_id));
        recent_looked_up = true;
      }
      if (recent != nullptr) counted = recent_in_window(*recent, cap.window_s, now_s);
    } else if (const CapEntry* e = find(bucketed_key(user_key, ad_id, cap)); e != nullptr) {
      counted = bucketed_in_window(*e, cap, now_s);
    }
    if (counted == kSaturatedCount || counted + pending >= cap.impressions) return false;
  }
  return true;
}

}  // namespace caps
