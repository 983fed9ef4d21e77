#pragma once
// Where GDPR applies (docs/targeting.md): the EU, the EEA and the UK, by the GeoNames ids
// of their countries. Held as data, not derived from --geonames-dir, so the rule holds
// whether or not the operator loads the dumps (the ids are stable; a unit test checks them
// against countryInfo.txt).
#include <cstdint>
#include <span>

namespace decision::targeting {

struct GdprCountry {
  char iso2[3];
  uint64_t geoname_id;
};

// EU 27, then Iceland, Liechtenstein, Norway (EEA), then the United Kingdom.
std::span<const GdprCountry> gdpr_countries();

bool is_gdpr_country(uint64_t geoname_id);

}  // namespace decision::targeting
