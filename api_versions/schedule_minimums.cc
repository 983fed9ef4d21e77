#include "api_versions/schedule_minimums.h"

#include "absl/strings/str_cat.h"
#include "api_versions/calendar_day.h"
#include "runtime/check.h"

namespace api_versions {

namespace {
// The same day of the month, months later (clamped to the month's end: 31 March + 3 months
// is 30 June, as people count months).
absl::CivilDay months_after(absl::CivilDay day, int months) {
  DECISIOND_CHECK(months >= 0);
  const absl::CivilMonth month = absl::CivilMonth(day) + months;
  const absl::CivilDay first_of_next = absl::CivilDay(month + 1);
  const absl::CivilDay same_day(month.year(), month.month(), day.day());
  return same_day < first_of_next ? same_day : first_of_next - 1;
}
}  // namespace

std::vector<std::string> schedule_shortfalls(const VersionTable& table) {
  std::vector<std::string> out;
  const auto entries = table.entries();  // ascending by version
  for (size_t i = 0; i < entries.size(); ++i) {
    const VersionEntry& entry = entries[i];
    if (!entry.sunset) continue;
    const absl::CivilDay sunset = *entry.sunset;
    const absl::CivilDay deprecated = entry.deprecated.value_or(sunset);
    if (sunset < months_after(deprecated, kDeprecatedMonths)) {
      out.push_back(absl::StrCat("version ", entry.version_text, " is deprecated for ", sunset - deprecated,
                                 " days before its sunset on ", day_text(sunset), " (the minimum is ",
                                 kDeprecatedMonths, " months, docs/versions-and-languages.md)"));
    }
    if (i + 1 < entries.size()) {
      const VersionEntry& successor = entries[i + 1];
      DECISIOND_CHECK(entry.version < successor.version);  // the table ascends
      if (sunset < months_after(successor.release, kParallelSupportMonths)) {
        const int64_t gap = sunset - successor.release;
        out.push_back(absl::StrCat("version ", entry.version_text, " is sunset on ", day_text(sunset), ", ",
                                   gap >= 0 ? gap : -gap, gap >= 0 ? " days after " : " days before ",
                                   successor.version_text,
                                   " is released (the minimum of parallel support is ", kParallelSupportMonths,
                                   " months, docs/versions-and-languages.md)"));
      }
    }
  }
  return out;
}

}  // namespace api_versions
