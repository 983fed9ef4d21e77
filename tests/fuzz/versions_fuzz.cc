// Fuzz driver for the --versions file (api_versions/version_table.h, VersionTable::parse):
// the input is the file's text. Invariants, any break aborts:
//   - a refusal is InvalidArgument, one error per line, each "<JSON path>: <what>" with the
//     path starting at "$" or "[";
//   - a table has 1..kMaxVersions entries, strictly ascending, each version spelled as
//     "YYYY-MM-DD" of itself, its dates in lifecycle order (release <= maintenance <=
//     deprecated <= sunset, where given), found by find();
//   - the table written back as a file parses to the same table.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/str_split.h"
#include "api_versions/calendar_day.h"
#include "api_versions/version_table.h"
#include "runtime/absl_view.h"

namespace {

namespace versions = api_versions;

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "versions_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

void append_day(std::string& out, std::string_view name, const std::optional<absl::CivilDay>& day) {
  out.append(", \"").append(name).append("\": ");
  if (day) {
    out.append("\"").append(versions::day_text(*day)).append("\"");
  } else {
    out.append("null");
  }
}

// The table as a --versions file. Guides are http(s) URLs without spaces or controls, but
// may hold '"' or '\\', which JSON escapes.
std::string written_back(const versions::VersionTable& table) {
  std::string out = "[";
  for (const versions::VersionEntry& entry : table.entries()) {
    if (out.size() > 1) out += ",\n";
    out.append("{\"version\": \"").append(entry.version_text).append("\"");
    append_day(out, "release", entry.release);
    append_day(out, "maintenance", entry.maintenance);
    append_day(out, "deprecated", entry.deprecated);
    append_day(out, "sunset", entry.sunset);
    if (!entry.migration_guide.empty()) {
      out.append(", \"migrationGuide\": \"");
      for (const char c : entry.migration_guide) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += '"';
    }
    out += "}";
  }
  out += "]";
  return out;
}

bool same_entries(const versions::VersionTable& a, const versions::VersionTable& b) {
  if (a.entries().size() != b.entries().size()) return false;
  for (size_t i = 0; i < a.entries().size(); ++i) {
    const versions::VersionEntry& x = a.entries()[i];
    const versions::VersionEntry& y = b.entries()[i];
    if (x.version != y.version || x.version_text != y.version_text || x.release != y.release ||
        x.maintenance != y.maintenance || x.deprecated != y.deprecated || x.sunset != y.sunset ||
        x.migration_guide != y.migration_guide) {
      return false;
    }
  }
  return true;
}

void check_table(const versions::VersionTable& table) {
  const auto entries = table.entries();
  check(!entries.empty() && entries.size() <= versions::VersionTable::kMaxVersions, "1..kMaxVersions entries");
  for (size_t i = 0; i < entries.size(); ++i) {
    const versions::VersionEntry& entry = entries[i];
    check(i == 0 || entries[i - 1].version < entry.version, "entries strictly ascending");
    check(versions::parse_day(entry.version_text) == entry.version, "a version's text spells it");
    check(table.find(entry.version) == &entry, "find() gives the entry");
    std::optional<absl::CivilDay> previous = entry.release;
    for (const std::optional<absl::CivilDay>& day : {entry.maintenance, entry.deprecated, entry.sunset}) {
      if (!day) continue;
      check(*previous <= *day, "lifecycle dates in order");
      previous = day;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<versions::VersionTable> table = versions::VersionTable::parse(text);
  if (!table.ok()) {
    check(table.status().code() == absl::StatusCode::kInvalidArgument, "a refusal is InvalidArgument");
    for (const absl::string_view line : absl::StrSplit(table.status().message(), '\n')) {
      check(!line.empty() && (line.front() == '$' || line.front() == '[') &&
                line.find(": ") != absl::string_view::npos,
            "each error is \"<JSON path>: <what>\"");
    }
    return 0;
  }
  check_table(*table);
  const absl::StatusOr<versions::VersionTable> again = versions::VersionTable::parse(written_back(*table));
  check(again.ok() && same_entries(*again, *table), "the table written back parses the same");
  return 0;
}
