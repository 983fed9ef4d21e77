#include "decision/geo/geoip_database.h"

#include <atomic>
#include <utility>

#include <maxminddb.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <cstring>

#include "absl/strings/str_cat.h"

namespace decision::geo {

namespace {
uint64_t geoname_id(MMDB_entry_s* entry, const char* const* path) {
  MMDB_entry_data_s data;
  if (MMDB_aget_value(entry, &data, path) != MMDB_SUCCESS || !data.has_data) return 0;
  switch (data.type) {
    case MMDB_DATA_TYPE_UINT32: return data.uint32;
    case MMDB_DATA_TYPE_UINT64: return data.uint64;
    case MMDB_DATA_TYPE_UINT16: return data.uint16;
    default: return 0;
  }
}
}  // namespace

absl::StatusOr<GeoIpDatabase> GeoIpDatabase::open(std::string_view path) {
  auto db = std::make_unique<MMDB_s>();
  const std::string file(path);
  const int status = MMDB_open(file.c_str(), MMDB_MODE_MMAP, db.get());
  if (status != MMDB_SUCCESS) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": ", MMDB_strerror(status)));
  }
  return GeoIpDatabase(std::move(db));
}

namespace {
// Opening is rare and off the request path (start-up, SIGHUP): one counter for the process.
std::atomic<uint64_t> opened_databases{0};
}  // namespace

GeoIpDatabase::GeoIpDatabase(std::unique_ptr<MMDB_s> db)
    : db_(std::move(db)), identity_(opened_databases.fetch_add(1, std::memory_order_relaxed) + 1) {}
GeoIpDatabase::GeoIpDatabase(GeoIpDatabase&& other) noexcept
    : db_(std::move(other.db_)), identity_(std::exchange(other.identity_, 0)) {}
GeoIpDatabase& GeoIpDatabase::operator=(GeoIpDatabase&& other) noexcept {
  if (this != &other) {
    if (db_) MMDB_close(db_.get());
    db_ = std::move(other.db_);
    identity_ = std::exchange(other.identity_, 0);
  }
  return *this;
}
GeoIpDatabase::~GeoIpDatabase() {
  if (db_) MMDB_close(db_.get());
}

std::string_view GeoIpDatabase::database_type() const { return db_->metadata.database_type; }

GeoIpRecord GeoIpDatabase::lookup(std::span<const uint8_t> address) const {
  const std::optional<uint32_t> offset = record_offset(address);
  return offset ? record_at(*offset) : GeoIpRecord{};
}

std::optional<uint32_t> GeoIpDatabase::record_offset(std::span<const uint8_t> address) const {
  sockaddr_storage storage{};
  if (address.size() == 4) {
    auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
    v4->sin_family = AF_INET;
    std::memcpy(&v4->sin_addr, address.data(), 4);
  } else if (address.size() == 16) {
    auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
    v6->sin6_family = AF_INET6;
    std::memcpy(&v6->sin6_addr, address.data(), 16);
  } else {
    return std::nullopt;
  }
  int error = MMDB_SUCCESS;
  const MMDB_lookup_result_s result =
      MMDB_lookup_sockaddr(db_.get(), reinterpret_cast<const sockaddr*>(&storage), &error);
  if (error != MMDB_SUCCESS || !result.found_entry) return std::nullopt;
  return result.entry.offset;
}

GeoIpRecord GeoIpDatabase::record_at(uint32_t offset) const {
  GeoIpRecord record;
  record.found = true;
  MMDB_entry_s entry{db_.get(), offset};
  static const char* const kCountry[] = {"country", "geoname_id", nullptr};
  static const char* const kSubdivision[] = {"subdivisions", "0", "geoname_id", nullptr};
  static const char* const kCity[] = {"city", "geoname_id", nullptr};
  static const char* const kEu[] = {"country", "is_in_european_union", nullptr};
  static const char* const kTimeZone[] = {"location", "time_zone", nullptr};
  record.country_id = geoname_id(&entry, kCountry);
  record.subdivision_id = geoname_id(&entry, kSubdivision);
  record.city_id = geoname_id(&entry, kCity);
  MMDB_entry_data_s data;
  if (MMDB_aget_value(&entry, &data, kEu) == MMDB_SUCCESS && data.has_data &&
      data.type == MMDB_DATA_TYPE_BOOLEAN) {
    record.in_european_union = data.boolean;
  }
  if (MMDB_aget_value(&entry, &data, kTimeZone) == MMDB_SUCCESS && data.has_data &&
      data.type == MMDB_DATA_TYPE_UTF8_STRING) {
    record.time_zone = std::string_view(data.utf8_string, data.data_size);
  }
  return record;
}

}  // namespace decision::geo
