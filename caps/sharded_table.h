#pragma once
// A hash set of fixed-size entries keyed by 64-bit fingerprints, split into kShards small
// open-addressing tables (linear probing, backward-shift deletion). Used by the cap
// partition and the impression dedup set, one per core, single-threaded.
//
// Why shards: every cost that grows with the table stays the size of one shard. A shard
// grows (or shrinks) by rehashing itself alone, so no insert ever pauses for the whole
// table. A shard grows by half when 3/4 full, so it is never less than 1/2 full once grown:
// 32-byte entries then take at most 64 bytes each, about 47 on average (a power-of-two
// doubling at 7/8 would let that fall to 7/16 full, 73 bytes); expired entries are reclaimed by sweep_step(), a bounded walk the core takes a
// step of every tick, never a stop-the-world sweep; snapshots are written a shard at a time.
//
// Entry: a trivially copyable struct whose first members are `uint64_t key` (0 = empty
// slot) and `uint32_t expires_s` (the entry is dead once now_s >= expires_s). The low
// kShardBits bits of a key pick its shard, so callers who want related entries together
// (all of a user's) give them the same low bits.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"

namespace caps {

template <typename Entry>
class ShardedTable {
  static_assert(std::is_trivially_copyable_v<Entry>);

 public:
  static constexpr uint32_t kShardBits = 10;
  static constexpr uint32_t kShards = 1u << kShardBits;
  static constexpr uint32_t kMinCapacity = 8;

  static uint32_t shard_of(uint64_t key) { return static_cast<uint32_t>(key & (kShards - 1)); }

  // The live entry of key, or nullptr.
  Entry* find(uint64_t key, int64_t now_s) {
    Shard& shard = shards_[shard_of(key)];
    if (shard.slots.empty()) return nullptr;
    const size_t size = shard.slots.size();
    for (size_t i = home(key, size);; i = next(i, size)) {
      Entry& e = shard.slots[i];
      if (e.key == 0) return nullptr;
      if (e.key == key) return now_s < e.expires_s ? &e : nullptr;
    }
  }

  // The entry of key, created zeroed (but for its key) when absent or dead. The pointer is
  // valid until the next insert into the same shard.
  Entry* insert(uint64_t key, int64_t now_s, bool& created) {
    Shard& shard = shards_[shard_of(key)];
    if ((shard.used + 1) * 4 > shard.slots.size() * 3) grow(shard);
    const size_t size = shard.slots.size();
    for (size_t i = home(key, size);; i = next(i, size)) {
      Entry& e = shard.slots[i];
      if (e.key == key) {
        created = now_s >= e.expires_s;
        if (created) reset(e, key);
        return &e;
      }
      if (e.key == 0) {
        reset(e, key);
        ++shard.used;
        ++entries_;
        created = true;
        return &e;
      }
    }
  }

  // Visits at most max_slots slots, resuming where the last call stopped, and removes the
  // dead entries found; a shard left mostly empty is shrunk. Returns the entries removed.
  uint64_t sweep_step(int64_t now_s, uint32_t max_slots) {
    uint64_t removed = 0;
    while (max_slots > 0) {
      Shard& shard = shards_[sweep_shard_];
      if (sweep_slot_ >= shard.slots.size()) {
        if (shard.used * 8 < shard.slots.size() && shard.slots.size() > kMinCapacity) {
          rebuild(shard, std::max<size_t>(kMinCapacity, shard.slots.size() / 2));
        }
        sweep_shard_ = (sweep_shard_ + 1) & (kShards - 1);
        sweep_slot_ = 0;
        --max_slots;
        continue;
      }
      --max_slots;
      Entry& e = shard.slots[sweep_slot_];
      if (e.key != 0 && now_s >= e.expires_s) {
        erase(shard, sweep_slot_);  // the slot may now hold a shifted entry: look again
        ++removed;
        continue;
      }
      ++sweep_slot_;
    }
    reclaimed_ += removed;
    return removed;
  }

  // Appends the shard's live entries: "u32 count | count entries" (host byte order, as the
  // snapshot's header records; snapshots are read back on the machine kind that wrote them).
  void serialize_shard(uint32_t shard_index, int64_t now_s, std::string& out) const {
    const Shard& shard = shards_[shard_index];
    uint32_t count = 0;
    for (const Entry& e : shard.slots) count += (e.key != 0 && now_s < e.expires_s) ? 1 : 0;
    out.append(reinterpret_cast<const char*>(&count), sizeof(count));
    for (const Entry& e : shard.slots) {
      if (e.key != 0 && now_s < e.expires_s) out.append(reinterpret_cast<const char*>(&e), sizeof(Entry));
    }
  }

  // Replaces the shard with what serialize_shard wrote. Refuses (and leaves the shard
  // empty) bytes of the wrong size, keys of another shard or a zero key.
  absl::Status load_shard(uint32_t shard_index, std::string_view bytes) {
    Shard& shard = shards_[shard_index];
    entries_ -= shard.used;
    shard = Shard{};
    uint32_t count = 0;
    if (bytes.size() < sizeof(count)) return absl::DataLossError("shard: truncated count");
    std::memcpy(&count, bytes.data(), sizeof(count));
    bytes.remove_prefix(sizeof(count));
    if (bytes.size() != uint64_t{count} * sizeof(Entry)) return absl::DataLossError("shard: size does not match its count");
    size_t capacity = kMinCapacity;
    while (capacity * 3 < uint64_t{count} * 4 + 4) capacity = grown(capacity);
    shard.slots.assign(capacity, Entry{});
    for (uint32_t i = 0; i < count; ++i) {
      Entry e;
      std::memcpy(&e, bytes.data() + size_t{i} * sizeof(Entry), sizeof(Entry));
      if (e.key == 0 || shard_of(e.key) != shard_index) {
        entries_ -= shard.used;
        shard = Shard{};
        return absl::DataLossError("shard: an entry with a key of another shard");
      }
      place(shard, e);
    }
    return absl::OkStatus();
  }

  uint64_t entries() const { return entries_; }
  uint64_t reclaimed() const { return reclaimed_; }
  // Heap bytes held by the slots (capacity, not use), plus the shard headers.
  uint64_t bytes() const {
    uint64_t total = sizeof(shards_);
    for (const Shard& s : shards_) total += s.slots.capacity() * sizeof(Entry);
    return total;
  }

 private:
  struct Shard {
    std::vector<Entry> slots;  // a multiple of 8 in size, or empty
    uint32_t used = 0;
  };

  // The key's bits above the shard bits, mapped onto [0, size) by multiplication (Lemire's
  // fast range): sizes need not be powers of two.
  static size_t home(uint64_t key, size_t size) {
    return static_cast<size_t>((static_cast<unsigned __int128>(key >> kShardBits) * size) >> (64 - kShardBits));
  }
  static size_t next(size_t i, size_t size) { return i + 1 == size ? 0 : i + 1; }
  static size_t grown(size_t size) { return (size + size / 2 + 7) / 8 * 8; }

  static void reset(Entry& e, uint64_t key) {
    e = Entry{};
    e.key = key;
  }

  // Inserts a live entry known to be absent.
  void place(Shard& shard, const Entry& entry) {
    const size_t size = shard.slots.size();
    size_t i = home(entry.key, size);
    while (shard.slots[i].key != 0) i = next(i, size);
    shard.slots[i] = entry;
    ++shard.used;
    ++entries_;
  }

  void grow(Shard& shard) { rebuild(shard, shard.slots.empty() ? kMinCapacity : grown(shard.slots.size())); }

  void rebuild(Shard& shard, size_t capacity) {
    std::vector<Entry> old;
    old.swap(shard.slots);
    shard.slots.assign(capacity, Entry{});
    entries_ -= shard.used;
    shard.used = 0;
    for (const Entry& e : old) {
      if (e.key != 0) place(shard, e);
    }
    if (&shard == &shards_[sweep_shard_]) sweep_slot_ = 0;  // slots moved: restart its walk
  }

  // Backward-shift deletion keeps every probe chain unbroken without tombstones.
  void erase(Shard& shard, size_t index) {
    const size_t size = shard.slots.size();
    size_t hole = index;
    for (size_t i = next(index, size);; i = next(i, size)) {
      Entry& e = shard.slots[i];
      if (e.key == 0) break;
      const size_t want = home(e.key, size);
      // e may move into the hole when its home is not in the cyclic range (hole, i].
      const bool stays = hole <= i ? (hole < want && want <= i) : (hole < want || want <= i);
      if (!stays) {
        shard.slots[hole] = e;
        hole = i;
      }
    }
    shard.slots[hole] = Entry{};
    --shard.used;
    --entries_;
  }

  Shard shards_[kShards];
  uint64_t entries_ = 0;
  uint64_t reclaimed_ = 0;
  uint32_t sweep_shard_ = 0;
  size_t sweep_slot_ = 0;
};

}  // namespace caps
