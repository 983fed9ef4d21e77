#include "decision/geo/geonames_hierarchy.h"

#include <charconv>
#include <fstream>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "runtime/absl_view.h"

namespace decision::geo {

namespace {
using runtime::av;

std::optional<GeoNameId> parse_id(std::string_view text) {
  GeoNameId id = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (error != std::errc() || end != text.data() + text.size() || id == 0) return std::nullopt;
  return id;
}

// Calls row(fields, line_number) for every line that is not a comment or blank; stops at
// the first error row returns.
template <typename Row>
absl::Status for_each_row(const std::string& path, Row row) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot be read"));
  std::string line;
  std::vector<std::string_view> fields;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    fields.clear();
    for (absl::string_view field : absl::StrSplit(av(line), '\t')) fields.emplace_back(field.data(), field.size());
    if (absl::Status status = row(fields, number); !status.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", number, ": ", status.message()));
    }
  }
  return absl::OkStatus();
}
}  // namespace

absl::StatusOr<GeoNamesHierarchy> GeoNamesHierarchy::load_dir(std::string_view dir,
                                                              std::string_view cities_file) {
  GeoNamesHierarchy out;
  const std::string base(dir);
  // countryInfo.txt: ISO, ISO3, ISO-numeric, fips, country, ..., geonameid (column 16).
  absl::Status status = for_each_row(base + "/countryInfo.txt", [&](const auto& f, size_t) {
    if (f.size() < 17) return absl::InvalidArgumentError("expected at least 17 tab-separated fields");
    const std::optional<GeoNameId> id = parse_id(f[16]);
    if (f[0].size() != 2 || !id) return absl::InvalidArgumentError("expected an ISO code and a geoname id");
    out.country_by_code_.emplace(std::string(f[0]), *id);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  // admin1CodesASCII.txt: "CC.code", name, ascii name, geonameid.
  absl::flat_hash_map<std::string, GeoNameId> division_by_code;
  status = for_each_row(base + "/admin1CodesASCII.txt", [&](const auto& f, size_t) {
    if (f.size() < 4) return absl::InvalidArgumentError("expected 4 tab-separated fields");
    const std::optional<GeoNameId> id = parse_id(f[3]);
    const size_t dot = f[0].find('.');
    if (!id || dot != 2) return absl::InvalidArgumentError("expected CC.code and a geoname id");
    division_by_code.emplace(std::string(f[0]), *id);
    out.division_country_.emplace(*id, out.country_of_code(f[0].substr(0, 2)));
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  // cities: geonameid (0), ..., country code (8), cc2 (9), admin1 code (10), ...
  status = for_each_row(base + "/" + std::string(cities_file), [&](const auto& f, size_t) {
    if (f.size() < 11) return absl::InvalidArgumentError("expected at least 11 tab-separated fields");
    const std::optional<GeoNameId> id = parse_id(f[0]);
    if (!id) return absl::InvalidArgumentError("expected a geoname id");
    Parents parents;
    parents.country = out.country_of_code(f[8]);
    if (!f[10].empty()) {
      const auto division = division_by_code.find(absl::StrCat(av(f[8]), ".", av(f[10])));
      if (division != division_by_code.end()) parents.division = division->second;
    }
    out.city_parents_.emplace(*id, parents);
    return absl::OkStatus();
  });
  if (!status.ok()) return status;
  return out;
}

GeoNameId GeoNamesHierarchy::country_of_code(std::string_view iso2) const {
  const auto it = country_by_code_.find(av(iso2));
  return it == country_by_code_.end() ? 0 : it->second;
}

size_t GeoNamesHierarchy::widen(GeoNameId id, std::span<GeoNameId, kMaxWidened> out) const {
  size_t count = 0;
  out[count++] = id;
  const auto add = [&](GeoNameId parent) {
    if (parent != 0 && parent != id) out[count++] = parent;
  };
  if (const auto city = city_parents_.find(id); city != city_parents_.end()) {
    add(city->second.division);
    if (city->second.country != city->second.division) add(city->second.country);
  } else if (const auto division = division_country_.find(id); division != division_country_.end()) {
    add(division->second);
  }
  return count;
}

}  // namespace decision::geo
