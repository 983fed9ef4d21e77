#pragma once
// Where an IP address is, from a MaxMind DB in the GeoIP2/GeoLite2-City layout
// (--geoip-db), read with libmaxminddb: the geoname ids of its country, first
// subdivision and city, its time zone, and whether MaxMind flags the country as in the
// European Union. Country-only databases (GeoIP2-Country) answer the country and EU flag.
//
// The file is memory-mapped once and shared read-only by every core: libmaxminddb look-ups
// touch no shared mutable state and allocate nothing.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "absl/status/statusor.h"

struct MMDB_s;

namespace decision::geo {

struct GeoIpRecord {
  bool found = false;             // the address is in the database
  uint64_t country_id = 0;        // 0: not given
  uint64_t subdivision_id = 0;    // the first (largest) subdivision; 0: not given
  uint64_t city_id = 0;           // 0: not given
  bool in_european_union = false;
  std::string_view time_zone;     // IANA name, a view into the mapped file; empty: not given
};

class GeoIpDatabase {
 public:
  static absl::StatusOr<GeoIpDatabase> open(std::string_view path);

  GeoIpDatabase(GeoIpDatabase&&) noexcept;
  GeoIpDatabase& operator=(GeoIpDatabase&&) noexcept;
  ~GeoIpDatabase();

  // address: 4 bytes (IPv4) or 16 (IPv6), network order. An IPv4 address in an IPv6
  // database is looked up where MaxMind maps it (::a.b.c.d).
  GeoIpRecord lookup(std::span<const uint8_t> address) const;

  // lookup() in its two steps. Finding the record is a walk down the search tree (about a
  // tenth of the cost); decoding it is the rest, so a caller that keeps decoded records by
  // offset (GeoIpRecordCache) pays it once per record: equal offsets are the same record.
  // nullopt: the address is not in the database.
  std::optional<uint32_t> record_offset(std::span<const uint8_t> address) const;
  GeoIpRecord record_at(uint32_t offset) const;

  std::string_view database_type() const;
  // Which opened file this is: what a record offset is an offset into. A number drawn once
  // per open, never reused in the process (an address would be: a database opened after an
  // earlier one closed can land where it was, and a cache keyed by it would serve the old
  // file's records).
  uint64_t identity() const { return identity_; }

 private:
  explicit GeoIpDatabase(std::unique_ptr<MMDB_s> db);
  std::unique_ptr<MMDB_s> db_;
  uint64_t identity_ = 0;
};

}  // namespace decision::geo
