#pragma once
// A hash set of fixed-size entries keyed by 64-bit fingerprints, split into kShards small
// open-addressing tables (linear probing, backward-shift deletion). Used by the cap
// partition and the impression dedup set, one per core, single-threaded.
//
// Why shards: every cost that grows with the table stays the size of one shard. A shard
// grows (or shrinks) by rehashing itself alone, so no insert ever pauses for the whole
// table. A shard grows by half when 3/4 full, so it is never less than 1/2 full once grown:
// 32-byte entries then take at most 64 bytes each, about 47 on average (a power-of-two
// doubling at 7/8 would let that fall to 7/16 full, 73 bytes). Expired entries are
// reclaimed by sweep_step(), a bounded walk the core takes a step of every tick, never a
// stop-the-world sweep; snapshots are written a shard at a time.
//
// Entry: a trivially copyable struct whose first members are `uint64_t key` (0 = empty
// slot) and `uint32_t expires_s` (the entry is dead once now_s >= expires_s), and which
// declares `static constexpr uint16_t kStoredBytes`, the prefix a snapshot keeps. The low
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
#include "caps/shard_format.h"
#include "runtime/check.h"

namespace caps {

template <typename Entry>
class ShardedTable {
  static_assert(std::is_trivially_copyable_v<Entry>);

 public:
  static constexpr uint32_t kShardBits = 10;
  static constexpr uint32_t kShards = 1u << kShardBits;
  static constexpr uint32_t kMinCapacity = 8;
  // The bytes of an entry a snapshot keeps: Entry::kStoredBytes, a prefix of the struct.
  static constexpr uint16_t kStoredBytes = Entry::kStoredBytes;
  static_assert(kStoredBytes >= sizeof(uint64_t) + sizeof(uint32_t) && kStoredBytes <= sizeof(Entry));

  static uint32_t shard_of(uint64_t key) { return static_cast<uint32_t>(key & (kShards - 1)); }

  // The live entry of key, or nullptr. Allocates nothing.
  const Entry* find(uint64_t key, int64_t now_s) const {
    const Shard& shard = shards_[shard_of(key)];
    const size_t size = shard.slots.size();
    if (size == 0) return nullptr;
    for (size_t i = home(key, size);; i = next(i, size)) {
      const Entry& e = shard.slots[i];
      if (e.key == 0) return nullptr;
      if (e.key == key) return live(e, now_s) ? &e : nullptr;
    }
  }

  // The entry of key, created zeroed (but for its key) when absent or dead. The pointer is
  // valid until the next insert into the same shard.
  Entry* insert(uint64_t key, int64_t now_s, bool& created) {
    // Key 0 marks an empty slot: its "entry" would be an empty slot written to, lost to
    // the next probe and counted nowhere.
    DECISIOND_CHECK_MSG(key != 0, "sharded table: key 0 is the empty slot");
    Shard& shard = shards_[shard_of(key)];
    if ((shard.used + 1) * 4 > shard.slots.size() * 3) grow(shard);
    const size_t size = shard.slots.size();
    // The probe below ends only at an empty slot: the load factor keeps one.
    DECISIOND_CHECK_MSG((shard.used + 1) * 4 <= size * 3, "sharded table: shard over its load factor");
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

  // Appends the shard's live entries in the format of caps/shard_format.h. A shard index
  // out of range appends an empty shard.
  void serialize_shard(uint32_t shard_index, int64_t now_s, std::string& out) const {
    if (shard_index >= kShards) {
      append_shard_header(kStoredBytes, 0, out);
      return;
    }
    const Shard& shard = shards_[shard_index];
    uint32_t count = 0;
    for (const Entry& e : shard.slots) count += live(e, now_s) ? 1 : 0;
    out.reserve(out.size() + sizeof(ShardHeader) + size_t{count} * kStoredBytes);
    append_shard_header(kStoredBytes, count, out);
    for (const Entry& e : shard.slots) {
      if (live(e, now_s)) out.append(reinterpret_cast<const char*>(&e), kStoredBytes);
    }
  }

  // Replaces the shard with what serialize_shard wrote. Refuses, with the reason, and leaves
  // the shard empty: another version or entry size, a length that does not match the count,
  // a zero key, a key of another shard, a key twice.
  absl::Status load_shard(uint32_t shard_index, std::string_view bytes) {
    if (shard_index >= kShards) return absl::InvalidArgumentError("shard: index out of range");
    Shard& shard = shards_[shard_index];
    clear(shard);
    ShardHeader header;
    if (absl::Status read = take_shard_header(bytes, kStoredBytes, header); !read.ok()) return read;
    size_t capacity = kMinCapacity;
    while (capacity * 3 < uint64_t{header.count} * 4 + 4) capacity = grown(capacity);
    shard.slots.assign(capacity, Entry{});
    for (uint32_t i = 0; i < header.count; ++i) {
      Entry e{};
      std::memcpy(static_cast<void*>(&e), bytes.data() + size_t{i} * kStoredBytes, kStoredBytes);
      const char* refusal = e.key == 0                    ? "shard: an entry with a zero key"
                            : shard_of(e.key) != shard_index ? "shard: an entry with a key of another shard"
                            : !place_new(shard, e)           ? "shard: a key twice"
                                                             : nullptr;
      if (refusal != nullptr) {
        clear(shard);
        return absl::DataLossError(refusal);
      }
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

  // Inserts an entry known to be absent.
  void place(Shard& shard, const Entry& entry) {
    const size_t size = shard.slots.size();
    DECISIOND_CHECK_MSG(shard.used < size, "sharded table: no empty slot to place into");
    size_t i = home(entry.key, size);
    while (shard.slots[i].key != 0) i = next(i, size);
    shard.slots[i] = entry;
    ++shard.used;
    ++entries_;
  }

  // Inserts an entry unless its key is there already (then false). The shard has room.
  bool place_new(Shard& shard, const Entry& entry) {
    const size_t size = shard.slots.size();
    DECISIOND_CHECK_MSG(shard.used < size, "sharded table: no empty slot to place into");
    size_t i = home(entry.key, size);
    for (; shard.slots[i].key != 0; i = next(i, size)) {
      if (shard.slots[i].key == entry.key) return false;
    }
    shard.slots[i] = entry;
    ++shard.used;
    ++entries_;
    return true;
  }

  void clear(Shard& shard) {
    DECISIOND_CHECK_MSG(entries_ >= shard.used, "sharded table: entry count below a shard's");
    entries_ -= shard.used;
    shard = Shard{};
  }

  static bool live(const Entry& e, int64_t now_s) { return e.key != 0 && now_s < e.expires_s; }

  void grow(Shard& shard) { rebuild(shard, shard.slots.empty() ? kMinCapacity : grown(shard.slots.size())); }

  void rebuild(Shard& shard, size_t capacity) {
    std::vector<Entry> old;
    old.swap(shard.slots);
    shard.slots.assign(capacity, Entry{});
    DECISIOND_CHECK_MSG(entries_ >= shard.used, "sharded table: entry count below a shard's");
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
    DECISIOND_CHECK_MSG(shard.used > 0 && entries_ > 0, "sharded table: erased from an empty shard");
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
