#include "caps/cap_partition.h"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "runtime/check.h"

namespace caps {

namespace {

constexpr uint32_t kShardMask = CapPartition::kShards - 1;
constexpr uint16_t kSaturated = UINT16_MAX;

// The fingerprint of one entry: a hash of what it counts, with the user's shard bits, so
// that every entry of a user lives in the user's shard. kind 0 is the recent entry; a
// bucketed entry is named by its cap's own values, so reordering an ad's caps in the catalog
// keeps the counts.
uint64_t entry_key(uint64_t user_key, uint64_t ad_id, uint32_t impressions, uint32_t window_s) {
  const uint64_t fields[4] = {user_key, ad_id, impressions, window_s};
  uint64_t key = (XXH3_64bits(fields, sizeof(fields)) & ~uint64_t{kShardMask}) | (user_key & kShardMask);
  if (key == 0) key = CapPartition::kShards;  // 0 marks an empty slot; same shard (0)
  return key;
}

uint64_t recent_key(uint64_t user_key, uint64_t ad_id) { return entry_key(user_key, ad_id, 0, 0); }

bool bucketed(const CapRule& cap) { return cap.impressions > CapPartition::kRecentImpressions; }

// The newest bucket holds now, so only the 7 before it are whole: they must span the window,
// or a slide would drop impressions still inside it.
uint32_t bucket_width_s(const CapRule& cap) {
  constexpr uint32_t kWholeBuckets = CapPartition::kBuckets - 1;
  return std::max<uint32_t>(1, (cap.window_s + kWholeBuckets - 1) / kWholeBuckets);
}

uint32_t to_u32(int64_t s) { return static_cast<uint32_t>(std::clamp<int64_t>(s, 1, UINT32_MAX)); }

uint16_t get_count(const CapPartition::Entry& e, uint32_t bucket) {
  DECISIOND_CHECK_MSG(bucket < CapPartition::kBuckets, "cap bucket out of range");
  uint16_t counts[CapPartition::kBuckets];
  std::memcpy(counts, &e.words[1], sizeof(counts));
  return counts[bucket];
}

void set_count(CapPartition::Entry& e, uint32_t bucket, uint16_t value) {
  // A bucket past the 8 counts would be written past them, over the stack.
  DECISIOND_CHECK_MSG(bucket < CapPartition::kBuckets, "cap bucket out of range");
  uint16_t counts[CapPartition::kBuckets];
  std::memcpy(counts, &e.words[1], sizeof(counts));
  counts[bucket] = value;
  std::memcpy(&e.words[1], counts, sizeof(counts));
}

// Impressions of the recent entry that fall in the last window_s seconds.
uint32_t recent_in_window(const CapPartition::Entry& e, uint32_t window_s, int64_t now_s) {
  uint32_t n = 0;
  for (uint32_t t : e.words) {
    if (t != 0 && now_s - int64_t{t} < int64_t{window_s}) ++n;
  }
  return n;
}

// The bucketed entry's count for the last window_s seconds, partly covered buckets whole.
uint64_t bucketed_in_window(const CapPartition::Entry& e, const CapRule& cap, int64_t now_s) {
  const int64_t width = bucket_width_s(cap);
  uint64_t n = 0;
  for (uint32_t b = 0; b < CapPartition::kBuckets; ++b) {
    const int64_t bucket_end = int64_t{e.words[0]} + (b + 1) * width;
    if (bucket_end <= now_s - int64_t{cap.window_s}) continue;
    const uint16_t c = get_count(e, b);
    if (c == kSaturated) return UINT64_MAX;
    n += c;
  }
  return n;
}

}  // namespace

bool CapPartition::allows(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) {
  const Entry* recent = nullptr;
  bool recent_looked_up = false;
  for (const CapRule& cap : caps) {
    if (!bucketed(cap)) {
      if (!recent_looked_up) {
        recent = table_.find(recent_key(user_key, ad_id), now_s);
        recent_looked_up = true;
      }
      if (recent != nullptr && recent_in_window(*recent, cap.window_s, now_s) >= cap.impressions) return false;
      continue;
    }
    const Entry* e = table_.find(entry_key(user_key, ad_id, cap.impressions, cap.window_s), now_s);
    if (e != nullptr && bucketed_in_window(*e, cap, now_s) >= cap.impressions) return false;
  }
  return true;
}

void CapPartition::count(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
                         std::span<uint64_t> counts) const {
  const Entry* recent = table_.find(recent_key(user_key, ad_id), now_s);
  for (size_t i = 0; i < caps.size() && i < counts.size(); ++i) {
    const CapRule& cap = caps[i];
    if (!bucketed(cap)) {
      counts[i] = recent == nullptr ? 0 : recent_in_window(*recent, cap.window_s, now_s);
      continue;
    }
    const Entry* e = table_.find(entry_key(user_key, ad_id, cap.impressions, cap.window_s), now_s);
    counts[i] = e == nullptr ? 0 : bucketed_in_window(*e, cap, now_s);
  }
}

void CapPartition::record(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) {
  uint32_t longest_recent_window_s = 0;
  for (const CapRule& cap : caps) {
    if (!bucketed(cap)) {
      longest_recent_window_s = std::max(longest_recent_window_s, cap.window_s);
      continue;
    }
    bool created = false;
    Entry* e = table_.insert(entry_key(user_key, ad_id, cap.impressions, cap.window_s), now_s, created);
    const int64_t width = bucket_width_s(cap);
    if (created) e->words[0] = to_u32(now_s - (kBuckets - 1) * width);  // now in the newest bucket
    int64_t bucket = (now_s - int64_t{e->words[0]}) / width;
    if (bucket < 0) bucket = 0;  // the clock went back: count in the oldest bucket
    if (bucket >= kBuckets) {
      // Slide: drop the oldest buckets so that now falls in the newest.
      const int64_t shift = bucket - (kBuckets - 1);
      for (uint32_t b = 0; b < kBuckets; ++b) {
        set_count(*e, b, b + shift < kBuckets ? get_count(*e, static_cast<uint32_t>(b + shift)) : 0);
      }
      e->words[0] = to_u32(int64_t{e->words[0]} + shift * width);
      bucket = kBuckets - 1;
    }
    const uint16_t c = get_count(*e, static_cast<uint32_t>(bucket));
    if (c != kSaturated) set_count(*e, static_cast<uint32_t>(bucket), static_cast<uint16_t>(c + 1));
    // Dead once the newest bucket has left the window entirely.
    e->expires_s = std::max(e->expires_s, to_u32(int64_t{e->words[0]} + kBuckets * width + cap.window_s));
  }
  if (longest_recent_window_s == 0) return;
  bool created = false;
  Entry* e = table_.insert(recent_key(user_key, ad_id), now_s, created);
  std::memmove(&e->words[1], &e->words[0], sizeof(uint32_t) * (kRecentImpressions - 1));
  e->words[0] = to_u32(now_s);
  e->expires_s = std::max(e->expires_s, to_u32(now_s + longest_recent_window_s));
}

}  // namespace caps
