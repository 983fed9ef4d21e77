#pragma once
// A core's decoded GeoIP records, kept by where the database stores them. Decoding a
// record (five walks through MaxMind's maps) costs about nine tenths of a look-up, and
// the records a server sees repeat: one per city-level network, shared by every address
// in it. Direct-mapped and fixed in size, allocated once: a look-up never allocates, and a
// slot another record claims is simply decoded again.
#include <array>
#include <cstdint>
#include <memory>
#include <span>

#include "decision/geo/geoip_database.h"

namespace decision::geo {

class GeoIpRecordCache {
 public:
  static constexpr int kSlotBits = 10;
  static constexpr size_t kSlots = size_t{1} << kSlotBits;

  GeoIpRecordCache() : slots_(std::make_unique<std::array<Slot, kSlots>>()) {}

  // database.lookup(address), decoding only records this cache does not hold. A cache
  // serves one database (the server opens one for its lifetime); another one empties it.
  GeoIpRecord lookup(const GeoIpDatabase& database, std::span<const uint8_t> address);

  uint64_t decoded() const { return decoded_; }  // records decoded (misses), for tests

 private:
  struct Slot {
    uint32_t offset = 0;
    bool used = false;
    GeoIpRecord record;
  };

  std::unique_ptr<std::array<Slot, kSlots>> slots_;
  uint64_t database_ = 0;  // GeoIpDatabase::identity() of the records held; 0: none
  uint64_t decoded_ = 0;
};

}  // namespace decision::geo
