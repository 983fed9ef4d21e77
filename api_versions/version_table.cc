#include "api_versions/version_table.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "api_versions/calendar_day.h"
#include "runtime/absl_view.h"
#include "runtime/check.h"

namespace api_versions {
namespace {

using runtime::av;

// One item of the file, read as far as it is valid.
struct Draft {
  size_t index = 0;  // position in the file, for "duplicate of [i]"
  std::optional<absl::CivilDay> version;
  std::optional<absl::CivilDay> release;
  std::optional<absl::CivilDay> maintenance;
  std::optional<absl::CivilDay> deprecated;
  std::optional<absl::CivilDay> sunset;
  std::string migration_guide;
};

class ItemReader {
 public:
  ItemReader(simdjson::dom::object object, std::string path, std::vector<std::string>& errors)
      : object_(object), path_(std::move(path)), errors_(errors) {}

  // A date member; null or absent is nullopt (an error when required, saying why).
  std::optional<absl::CivilDay> day(std::string_view name, bool required, std::string_view why = "required") {
    simdjson::dom::element value;
    if (object_[name].get(value) || value.is_null()) {
      if (required) fail(name, why);
      return std::nullopt;
    }
    std::string_view text;
    std::optional<absl::CivilDay> parsed;
    if (!value.get_string().get(text)) parsed = parse_day(text);
    if (!parsed) fail(name, "must be YYYY-MM-DD");
    return parsed;
  }

  std::string url(std::string_view name) {
    simdjson::dom::element value;
    if (object_[name].get(value) || value.is_null()) return {};
    std::string_view text;
    if (value.get_string().get(text) || !is_http_url(text)) {
      fail(name, "must be an http:// or https:// URL");
      return {};
    }
    return std::string(text);
  }

 private:
  static bool is_http_url(std::string_view text) {
    size_t scheme = 0;
    if (text.starts_with("https://")) scheme = 8;
    else if (text.starts_with("http://")) scheme = 7;
    if (scheme == 0 || text.size() == scheme) return false;
    // Goes into a JSON body as given: no spaces or control characters.
    return std::none_of(text.begin(), text.end(),
                        [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; });
  }

  void fail(std::string_view name, std::string_view message) {
    errors_.push_back(absl::StrCat(path_, ".", av(name), ": ", av(message)));
  }

  simdjson::dom::object object_;
  std::string path_;
  std::vector<std::string>& errors_;
};

// release <= maintenance <= deprecated <= sunset, among the dates that are given.
void check_order(const Draft& draft, const std::string& path, std::vector<std::string>& errors) {
  const std::array<std::pair<std::string_view, const std::optional<absl::CivilDay>*>, 4> chain = {{
      {"release", &draft.release},
      {"maintenance", &draft.maintenance},
      {"deprecated", &draft.deprecated},
      {"sunset", &draft.sunset},
  }};
  const std::pair<std::string_view, const std::optional<absl::CivilDay>*>* previous = nullptr;
  for (const auto& link : chain) {
    if (!link.second->has_value()) continue;
    if (previous != nullptr && **link.second < **previous->second) {
      errors.push_back(absl::StrCat(path, ": ", av(link.first), " before ", av(previous->first)));
    }
    previous = &link;
  }
}

Draft read_item(simdjson::dom::element element, size_t index, std::vector<std::string>& errors) {
  Draft draft;
  draft.index = index;
  const std::string path = absl::StrCat("[", index, "]");
  simdjson::dom::object object;
  if (element.get_object().get(object)) {
    errors.push_back(absl::StrCat(path, ": must be an object"));
    return draft;
  }
  ItemReader reader(object, path, errors);
  draft.version = reader.day("version", /*required=*/true);
  draft.release = reader.day("release", /*required=*/true);
  draft.maintenance = reader.day("maintenance", /*required=*/false);
  draft.deprecated = reader.day("deprecated", /*required=*/false);
  // A version in maintenance or deprecated phase always carries its sunset date: maintenance
  // returns the deprecation header together with a sunset date (docs/versions-and-languages.md).
  const bool phased = draft.maintenance.has_value() || draft.deprecated.has_value();
  draft.sunset = reader.day("sunset", /*required=*/phased, "required with maintenance or deprecated");
  draft.migration_guide = reader.url("migrationGuide");
  check_order(draft, path, errors);
  return draft;
}

void check_duplicates(const std::vector<Draft>& drafts, std::vector<std::string>& errors) {
  for (size_t i = 0; i < drafts.size(); ++i) {
    if (!drafts[i].version) continue;
    for (size_t j = 0; j < i; ++j) {
      if (drafts[j].version == drafts[i].version) {
        errors.push_back(absl::StrCat("[", drafts[i].index, "].version: duplicate of [",
                                      drafts[j].index, "]"));
        break;
      }
    }
  }
}

VersionEntry entry_of(const Draft& draft) {
  // Only a draft without errors becomes an entry: its required dates are there.
  DECISIOND_CHECK(draft.version.has_value() && draft.release.has_value());
  VersionEntry entry;
  entry.version = *draft.version;
  entry.version_text = day_text(entry.version);
  entry.release = *draft.release;
  entry.maintenance = draft.maintenance;
  entry.deprecated = draft.deprecated;
  entry.sunset = draft.sunset;
  entry.migration_guide = draft.migration_guide;
  entry.features = features_of(entry.version);
  return entry;
}

absl::Status errors_status(const std::vector<std::string>& errors) {
  return absl::InvalidArgumentError(absl::StrJoin(errors, "\n"));
}

}  // namespace

VersionTable::VersionTable(std::vector<VersionEntry> entries) : entries_(std::move(entries)) {
  std::sort(entries_.begin(), entries_.end(),
            [](const VersionEntry& a, const VersionEntry& b) { return a.version < b.version; });
  // What the resolver and the phases rely on, whichever way the table was made.
  DECISIOND_CHECK(!entries_.empty() && entries_.size() <= kMaxVersions);
  for (size_t i = 0; i < entries_.size(); ++i) {
    const VersionEntry& entry = entries_[i];
    DECISIOND_CHECK_MSG(i == 0 || entries_[i - 1].version < entry.version, "two entries of one version");
    DECISIOND_CHECK_MSG(!(entry.maintenance || entry.deprecated) || entry.sunset,
                        "a version in maintenance or deprecated phase without a sunset date");
    const absl::CivilDay maintenance = entry.maintenance.value_or(entry.release);
    const absl::CivilDay deprecated = entry.deprecated.value_or(maintenance);
    DECISIOND_CHECK_MSG(entry.release <= maintenance && maintenance <= deprecated &&
                            deprecated <= entry.sunset.value_or(deprecated),
                        "a version's dates out of order");
  }
}

VersionTable VersionTable::built_in() {
  std::vector<VersionEntry> entries;
  for (const absl::CivilDay version : {absl::CivilDay(2025, 1, 1), absl::CivilDay(2025, 11, 1)}) {
    VersionEntry entry;
    entry.version = version;
    entry.version_text = day_text(version);
    entry.release = version;
    entry.features = features_of(version);
    entries.push_back(std::move(entry));
  }
  return VersionTable(std::move(entries));
}

absl::StatusOr<VersionTable> VersionTable::load_file(std::string_view path) {
  simdjson::padded_string json;
  if (const auto error = simdjson::padded_string::load(path).get(json)) {
    return absl::NotFoundError(
        absl::StrCat("cannot read versions file ", av(path), ": ", simdjson::error_message(error)));
  }
  return parse(json);
}

absl::StatusOr<VersionTable> VersionTable::parse(std::string_view json) {
  std::vector<std::string> errors;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (const auto error = parser.parse(simdjson::padded_string(json)).get(root)) {
    errors.push_back(absl::StrCat("$: not valid JSON (", simdjson::error_message(error), ")"));
    return errors_status(errors);
  }
  simdjson::dom::array items;
  if (root.get_array().get(items)) {
    errors.push_back("$: must be an array of versions");
    return errors_status(errors);
  }
  if (items.size() == 0) errors.push_back("$: must list at least one version");
  if (items.size() > kMaxVersions) {
    errors.push_back(absl::StrCat("$: more than ", kMaxVersions, " versions"));
  }

  std::vector<Draft> drafts;
  size_t index = 0;
  for (simdjson::dom::element item : items) drafts.push_back(read_item(item, index++, errors));
  check_duplicates(drafts, errors);
  if (!errors.empty()) return errors_status(errors);

  std::vector<VersionEntry> entries;
  entries.reserve(drafts.size());
  for (const Draft& draft : drafts) entries.push_back(entry_of(draft));
  return VersionTable(std::move(entries));
}

const VersionEntry* VersionTable::find(absl::CivilDay version) const {
  const auto it = std::lower_bound(
      entries_.begin(), entries_.end(), version,
      [](const VersionEntry& entry, absl::CivilDay v) { return entry.version < v; });
  if (it == entries_.end() || it->version != version) return nullptr;
  return &*it;
}

}  // namespace api_versions
