// Fuzz driver for the Accept-Language parser (decision/localization/accept_language.h) and
// the content-language choice that reads its result (language_match.h). The input is the
// header's value. Invariants, any break aborts:
//   - at most kMaxLanguageRanges ranges kept, each a view into the header, well-formed
//     ("*" or 1*8ALPHA *("-" 1*8alphanum)), with a weight of 0..1000;
//   - preferred ranges have q > 0, best first; excluded ones have q = 0; present() says
//     whether any was kept;
//   - the kept ranges written back as a header ("r;q=0.xyz, ...") parse to the same ranges;
//   - the choice among a fixed set of content languages is one of them, or the default
//     language with warning 20001 (no usable header) or 20004 (nothing fits).
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "decision/localization/accept_language.h"
#include "decision/localization/language_match.h"

namespace {

namespace localization = decision::localization;

void check(bool ok, const char* invariant) {
  if (!ok) {
    std::fprintf(stderr, "accept_language_fuzz: invariant broken: %s\n", invariant);
    std::abort();
  }
}

bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool alphanum(char c) { return alpha(c) || (c >= '0' && c <= '9'); }

bool well_formed_range(std::string_view range) {
  if (range == "*") return true;
  size_t subtag = 0;
  bool first = true;
  for (size_t i = 0; i <= range.size(); ++i) {
    if (i == range.size() || range[i] == '-') {
      if (subtag == 0 || subtag > 8) return false;
      subtag = 0;
      first = false;
      continue;
    }
    if (!(first ? alpha(range[i]) : alphanum(range[i]))) return false;
    ++subtag;
  }
  return true;
}

std::string rewritten(const localization::LanguagePreferences& preferences) {
  std::string header;
  auto append = [&header](const localization::LanguageRange& r) {
    if (!header.empty()) header += ", ";
    char q[8];
    std::snprintf(q, sizeof(q), "%u.%03u", r.q_milli / 1000u, r.q_milli % 1000u);
    header.append(r.range).append(";q=").append(q);
  };
  for (const auto& r : preferences.preferred()) append(r);
  for (const auto& r : preferences.excluded()) append(r);
  return header;
}

bool same_ranges(std::span<const localization::LanguageRange> a, std::span<const localization::LanguageRange> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].range != b[i].range || a[i].q_milli != b[i].q_milli) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view header(reinterpret_cast<const char*>(data), size);
  const localization::LanguagePreferences preferences = localization::parse_accept_language(header);
  const size_t kept = preferences.preferred().size() + preferences.excluded().size();
  check(kept <= localization::kMaxLanguageRanges, "at most kMaxLanguageRanges ranges");
  check(preferences.present() == (kept > 0), "present() says whether a range was kept");
  uint16_t previous_q = 1000;
  for (const auto& r : preferences.preferred()) {
    check(r.range.data() >= header.data() && r.range.data() + r.range.size() <= header.data() + header.size(),
          "a range views the header");
    check(well_formed_range(r.range), "a kept range is well-formed");
    check(r.q_milli > 0 && r.q_milli <= previous_q, "preferred ranges: q > 0, best first");
    previous_q = r.q_milli;
  }
  for (const auto& r : preferences.excluded()) {
    check(r.range.data() >= header.data() && r.range.data() + r.range.size() <= header.data() + header.size(),
          "a range views the header");
    check(well_formed_range(r.range), "a kept range is well-formed");
    check(r.q_milli == 0, "excluded ranges have q = 0");
  }

  const std::string again_text = rewritten(preferences);
  const localization::LanguagePreferences again = localization::parse_accept_language(again_text);
  check(same_ranges(again.preferred(), preferences.preferred()) && same_ranges(again.excluded(), preferences.excluded()),
        "kept ranges written back parse the same");
  check(again.malformed_items() == 0 && again.ignored_items() == 0, "kept ranges written back are all well-formed");

  static constexpr std::array<std::string_view, 6> kAvailable = {"fr", "en-US", "fr-CA", "pt-BR", "zh-Hant", "de"};
  const localization::LanguageChoice choice = localization::choose_language(preferences, kAvailable, "en");
  switch (choice.outcome) {
    case localization::LanguageOutcome::kMatched:
      check(choice.index >= 0 && static_cast<size_t>(choice.index) < kAvailable.size() &&
                choice.language == kAvailable[static_cast<size_t>(choice.index)],
            "a match is one of the available languages");
      break;
    case localization::LanguageOutcome::kHeaderMissing:
      check(!preferences.present(), "warning 20001 only without a usable header");
      check(choice.language == "en", "no header: the default language");
      break;
    case localization::LanguageOutcome::kNoMatch:
      check(preferences.present(), "warning 20004 only with a usable header");
      check(choice.language == "en", "no match: the default language");
      break;
  }
  return 0;
}
