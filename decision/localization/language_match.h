#pragma once
// Which of a creative's content languages to serve (docs/versions-and-languages.md).
//
// Ranges are tried best first (descending q, ties in header order); the first range that
// finds a language wins. For one range, in this order:
//   1. exact: a content language equal to the range ("fr-CA" -> "fr-CA");
//   2. lookup (RFC 4647 section 3.4): the range truncated subtag by subtag, a singleton
//      dropped with the subtag after it ("fr-CA" -> "fr"; "zh-Hant-x-a" -> "zh-Hant" -> "zh");
//   3. basic filtering (RFC 4647 section 3.3.1), last resort: a content language the range
//      is a prefix of at a subtag boundary ("en" -> "en-US"). Lookup alone never picks a
//      more specific tag, so a reader asking for "en" would get the default French content
//      over the "en-US" one; an ad server must prefer the language the reader reads.
//   "*" takes any language: the catalog default when the creative has it, else the first.
// Ranges with q=0 exclude the languages they match (as a basic filter) from steps 2, 3
// and "*"; an exact match of a range the client gave a positive weight still stands.
// Comparisons are ASCII case-insensitive. When several content languages fit one step,
// the catalog default wins, else the first in the creative's order. Allocates nothing.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "decision/localization/accept_language.h"
#include "http/error_codes.h"

namespace decision::localization {

enum class LanguageOutcome : uint8_t {
  kMatched,        // a content language fits the header
  kNoMatch,        // none fits: serve the default language, warning 20004
  kHeaderMissing,  // no usable header: serve the default language, warning 20001
};

struct LanguageChoice {
  LanguageOutcome outcome = LanguageOutcome::kHeaderMissing;
  // The language to serve: the matched content language (as the catalog spells it), else
  // default_language.
  std::string_view language;
  // Position of `language` among the available languages; -1 when the default language is
  // not one of them.
  int32_t index = -1;

  // 0, kAcceptLanguageMissing or kLanguageUnavailable (http/error_codes.h).
  int warning_code() const {
    switch (outcome) {
      case LanguageOutcome::kMatched: return 0;
      case LanguageOutcome::kNoMatch: return http::error_code::kLanguageUnavailable;
      case LanguageOutcome::kHeaderMissing: return http::error_code::kAcceptLanguageMissing;
    }
    return 0;
  }
};

// available: the creative's content languages, e.g. {"en", "fr", "pt-BR"}.
LanguageChoice choose_language(const LanguagePreferences& preferences,
                               std::span<const std::string_view> available,
                               std::string_view default_language);
LanguageChoice choose_language(const LanguagePreferences& preferences,
                               std::span<const std::string> available,
                               std::string_view default_language);

// ASCII case-insensitive equality of language tags.
bool same_language_tag(std::string_view a, std::string_view b);

}  // namespace decision::localization
