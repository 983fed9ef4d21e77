#pragma once
// The GeoNames hierarchy of docs/targeting.md ("Geo"): a city also counts as its first-level
// division and its country, a division as its country. Read once at start from the dumps
// in --geonames-dir (cities15000.txt or any citiesN.txt of the same layout,
// admin1CodesASCII.txt, countryInfo.txt), then read-only and shared by every core.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"

namespace decision::geo {

using GeoNameId = uint64_t;

// An id with what contains it: at most itself, its division and its country.
inline constexpr size_t kMaxWidened = 3;

class GeoNamesHierarchy {
 public:
  // Reads <dir>/countryInfo.txt, <dir>/admin1CodesASCII.txt and <dir>/<cities_file>.
  // Errors name the file and line. Rows whose division or country is not in the other
  // files (GeoNames has a few) keep the parents that are known.
  static absl::StatusOr<GeoNamesHierarchy> load_dir(std::string_view dir,
                                                    std::string_view cities_file = "cities15000.txt");

  // id followed by its known parents, distinct, into out; returns how many were written.
  // An id the hierarchy does not know stands for itself.
  size_t widen(GeoNameId id, std::span<GeoNameId, kMaxWidened> out) const;

  // The country of an ISO 3166 alpha-2 code ("FR"), 0 when unknown.
  GeoNameId country_of_code(std::string_view iso2) const;

  size_t cities() const { return city_parents_.size(); }
  size_t divisions() const { return division_country_.size(); }
  size_t countries() const { return country_by_code_.size(); }

 private:
  struct Parents {
    GeoNameId division = 0;  // 0: unknown
    GeoNameId country = 0;
  };
  absl::flat_hash_map<std::string, GeoNameId> country_by_code_;
  absl::flat_hash_map<GeoNameId, GeoNameId> division_country_;
  absl::flat_hash_map<GeoNameId, Parents> city_parents_;
};

}  // namespace decision::geo
