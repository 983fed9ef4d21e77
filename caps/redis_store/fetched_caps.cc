#include "caps/redis_store/fetched_caps.h"

#include <cstring>

namespace caps::redis_store {

namespace {

uint64_t read_u64(const char* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

uint32_t read_u32(const char* p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

constexpr size_t kEntryValueBytes = 24;  // expires_s and the 5 words

}  // namespace

void FetchedCaps::clear(uint64_t user_key) {
  user_key_ = user_key;
  entries_.clear();
  pending_.clear();
}

bool FetchedCaps::add_field(std::string_view field, std::string_view value, int64_t now_s) {
  if (field.size() == 8 && value.size() == kEntryValueBytes) {
    CapEntry& e = entries_.emplace_back();
    e.key = read_u64(field.data());
    e.expires_s = read_u32(value.data());
    for (int i = 0; i < 5; ++i) e.words[i] = read_u32(value.data() + 4 * (i + 1));
    return true;
  }
  if (field.size() == 9 && field[0] == 'p' && value.size() % 4 == 0) {
    const uint64_t ad = read_u64(field.data() + 1);
    for (size_t i = 0; i < value.size(); i += 4) {
      const uint32_t lapses_s = read_u32(value.data() + i);
      if (now_s < int64_t{lapses_s}) pending_.emplace_back(ad, lapses_s);
    }
    return true;
  }
  return false;
}

void FetchedCaps::add_kept(uint64_t ad_id, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) pending_.emplace_back(ad_id, UINT32_MAX);
}

const CapEntry* FetchedCaps::find(uint64_t key, int64_t now_s) const {
  for (const CapEntry& e : entries_) {
    if (e.key == key) return now_s < int64_t{e.expires_s} ? &e : nullptr;
  }
  return nullptr;
}

bool FetchedCaps::allows(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s) const {
  const auto find_live = [&](uint64_t key) { return find(key, now_s); };
  return caps_allow(find_live, user_key, ad_id, caps, now_s, pending(user_key, ad_id, now_s));
}

void FetchedCaps::count(uint64_t user_key, uint64_t ad_id, std::span<const CapRule> caps, int64_t now_s,
                        std::span<uint64_t> counts) const {
  const auto find_live = [&](uint64_t key) { return find(key, now_s); };
  count_caps(find_live, user_key, ad_id, caps, now_s, counts);
}

uint32_t FetchedCaps::pending(uint64_t user_key, uint64_t ad_id, int64_t now_s) const {
  if (user_key != user_key_) return 0;
  uint32_t n = 0;
  for (const auto& [ad, lapses_s] : pending_) n += (ad == ad_id && now_s < int64_t{lapses_s}) ? 1 : 0;
  return n;
}

}  // namespace caps::redis_store
