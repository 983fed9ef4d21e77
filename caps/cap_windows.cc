#include "caps/cap_windows.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "caps/user_key.h"
#include "runtime/check.h"

namespace caps {

namespace {

constexpr uint64_t kShardMask = kOwnerShards - 1;
constexpr uint16_t kSaturated = UINT16_MAX;

// A hash of what the entry counts, with the user's shard bits. kind (0, 0) is the recent
// entry; a bucketed entry is named by its cap's own values, so reordering an ad's caps in
// the catalog keeps the counts; (0, 1 + i) is the i-th pending entry (a cap never has 0
// impressions: the catalog refuses it).
uint64_t entry_key(uint64_t user_key, uint64_t ad_id, uint32_t impressions, uint32_t window_s) {
  const uint64_t fields[4] = {user_key, ad_id, impressions, window_s};
  uint64_t key = (XXH3_64bits(fields, sizeof(fields)) & ~kShardMask) | (user_key & kShardMask);
  if (key == 0) key = kOwnerShards;  // 0 marks an empty slot; same shard (0)
  return key;
}

uint32_t to_u32(int64_t s) { return static_cast<uint32_t>(std::clamp<int64_t>(s, 1, UINT32_MAX)); }

uint16_t get_count(const CapEntry& e, uint32_t bucket) {
  DECISIOND_CHECK_MSG(bucket < kBuckets, "cap bucket out of range");
  uint16_t counts[kBuckets];
  std::memcpy(counts, &e.words[1], sizeof(counts));
  return counts[bucket];
}

void set_count(CapEntry& e, uint32_t bucket, uint16_t value) {
  // A bucket past the 8 counts would be written past them, over the stack.
  DECISIOND_CHECK_MSG(bucket < kBuckets, "cap bucket out of range");
  uint16_t counts[kBuckets];
  std::memcpy(counts, &e.words[1], sizeof(counts));
  counts[bucket] = value;
  std::memcpy(&e.words[1], counts, sizeof(counts));
}

}  // namespace

uint64_t recent_key(uint64_t user_key, uint64_t ad_id) { return entry_key(user_key, ad_id, 0, 0); }

uint64_t bucketed_key(uint64_t user_key, uint64_t ad_id, const CapRule& cap) {
  return entry_key(user_key, ad_id, cap.impressions, cap.window_s);
}

uint64_t pending_key(uint64_t user_key, uint64_t ad_id, uint32_t index) {
  return entry_key(user_key, ad_id, 0, 1 + index);
}

uint32_t bucket_width_s(const CapRule& cap) {
  constexpr uint32_t kWholeBuckets = kBuckets - 1;
  return std::max<uint32_t>(1, (cap.window_s + kWholeBuckets - 1) / kWholeBuckets);
}

uint32_t recent_in_window(const CapEntry& e, uint32_t window_s, int64_t now_s) {
  uint32_t n = 0;
  for (uint32_t t : e.words) {
    if (t != 0 && now_s - int64_t{t} < int64_t{window_s}) ++n;
  }
  return n;
}

uint64_t bucketed_in_window(const CapEntry& e, const CapRule& cap, int64_t now_s) {
  const int64_t width = bucket_width_s(cap);
  uint64_t n = 0;
  for (uint32_t b = 0; b < kBuckets; ++b) {
    const int64_t bucket_end = int64_t{e.words[0]} + (b + 1) * width;
    if (bucket_end <= now_s - int64_t{cap.window_s}) continue;
    const uint16_t c = get_count(e, b);
    if (c == kSaturated) return kSaturatedCount;
    n += c;
  }
  return n;
}

void record_recent(CapEntry& e, uint32_t longest_window_s, int64_t now_s) {
  std::memmove(&e.words[1], &e.words[0], sizeof(uint32_t) * (kRecentImpressions - 1));
  e.words[0] = to_u32(now_s);
  e.expires_s = std::max(e.expires_s, to_u32(now_s + longest_window_s));
}

void record_bucketed(CapEntry& e, const CapRule& cap, bool created, int64_t now_s) {
  const int64_t width = bucket_width_s(cap);
  if (created) e.words[0] = to_u32(now_s - (kBuckets - 1) * width);  // now in the newest bucket
  int64_t bucket = (now_s - int64_t{e.words[0]}) / width;
  if (bucket < 0) bucket = 0;  // the clock went back: count in the oldest bucket
  if (bucket >= kBuckets) {
    // Slide: drop the oldest buckets so that now falls in the newest.
    const int64_t shift = bucket - (kBuckets - 1);
    for (uint32_t b = 0; b < kBuckets; ++b) {
      set_count(e, b, b + shift < kBuckets ? get_count(e, static_cast<uint32_t>(b + shift)) : 0);
    }
    e.words[0] = to_u32(int64_t{e.words[0]} + shift * width);
    bucket = kBuckets - 1;
  }
  const uint16_t c = get_count(e, static_cast<uint32_t>(bucket));
  if (c != kSaturated) set_count(e, static_cast<uint32_t>(bucket), static_cast<uint16_t>(c + 1));
  // Dead once the newest bucket has left the window entirely.
  e.expires_s = std::max(e.expires_s, to_u32(int64_t{e.words[0]} + kBuckets * width + cap.window_s));
}

}  // namespace caps
