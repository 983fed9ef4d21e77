#pragma once
// user.timezone names, checked against the system's zoneinfo once per name per core.
// absl::LoadTimeZone opens and reads a zoneinfo file, keeps known zones in a process-wide
// map behind a mutex, and remembers nothing of unknown names; this per-core cache answers
// repeated names, known or unknown, without a file access or a lock.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"

namespace decision::request {

class TimeZoneCache {
 public:
  // Names remembered, known and unknown together; about 600 IANA names exist, so the bound
  // only stops a client sending endless invented names from growing the cache. Past it a
  // new name is still answered, with a file access each time (counted in loads()).
  static constexpr size_t kMaxEntries = 1024;

  TimeZoneCache();

  // The zone for an IANA time zone name ("Europe/Paris", "UTC", "Etc/GMT+5"), or nothing for
  // a name that is not one. Names that cannot be zone names (a path, "localtime", ':' forms
  // cctz understands, over kMaxTimeZoneNameBytes) are refused without a file access.
  std::optional<absl::TimeZone> find(std::string_view name);

  // The syntax every IANA name follows: '/'-separated parts of ASCII letters, digits, '_',
  // '+' and '-', each starting with a letter. Excludes "posix/..." and "right/..." (Debian's
  // copies of the database, not zone names).
  static bool is_zone_name_syntax(std::string_view name);

  uint64_t loads() const { return loads_; }        // absl::LoadTimeZone calls
  uint64_t uncached() const { return uncached_; }  // names not kept: the cache was full
  size_t size() const { return entries_.size(); }

 private:
  absl::flat_hash_map<std::string, std::optional<absl::TimeZone>> entries_;
  uint64_t loads_ = 0;
  uint64_t uncached_ = 0;
};

}  // namespace decision::request
