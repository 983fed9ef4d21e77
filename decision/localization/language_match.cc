#include "decision/localization/language_match.h"

namespace decision::localization {
namespace {

constexpr int32_t kNone = -1;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// range is a prefix of tag ending at a subtag boundary ("en" of "en-US", not of "eng").
bool is_prefix_at_boundary(std::string_view range, std::string_view tag) {
  return tag.size() > range.size() && tag[range.size()] == '-' &&
         same_language_tag(tag.substr(0, range.size()), range);
}

// The range minus its last subtag, and minus a singleton left at its end; empty when only
// the primary subtag was left (RFC 4647 section 3.4).
std::string_view truncated(std::string_view range) {
  size_t dash = range.rfind('-');
  if (dash == std::string_view::npos) return {};
  range = range.substr(0, dash);
  dash = range.rfind('-');
  if (dash != std::string_view::npos && range.size() - dash == 2) range = range.substr(0, dash);
  return range;
}

template <typename Tag>
class Matcher {
 public:
  Matcher(const LanguagePreferences& preferences, std::span<const Tag> available,
          std::string_view default_language)
      : excluded_(preferences.excluded()), available_(available) {
    default_index_ = find_exact(default_language);
  }

  int32_t best(std::span<const LanguageRange> preferred) const {
    for (const LanguageRange& range : preferred) {
      const int32_t found = for_range(range.range);
      if (found != kNone) return found;
    }
    return kNone;
  }

  int32_t default_index() const { return default_index_; }

 private:
  int32_t for_range(std::string_view range) const {
    if (range == "*") return first_acceptable([](std::string_view) { return true; });
    if (const int32_t exact = find_exact(range); exact != kNone) return exact;
    for (std::string_view shorter = truncated(range); !shorter.empty();
         shorter = truncated(shorter)) {
      const int32_t found = find_exact(shorter);
      if (found != kNone && !is_excluded(tag(found))) return found;
    }
    return first_acceptable(
        [range](std::string_view tag) { return is_prefix_at_boundary(range, tag); });
  }

  // Among the languages that fit and are not excluded: the default, else the first.
  template <typename Fits>
  int32_t first_acceptable(Fits fits) const {
    if (default_index_ != kNone && fits(tag(default_index_)) && !is_excluded(tag(default_index_))) {
      return default_index_;
    }
    for (size_t i = 0; i < available_.size(); ++i) {
      if (fits(tag(i)) && !is_excluded(tag(i))) return static_cast<int32_t>(i);
    }
    return kNone;
  }

  int32_t find_exact(std::string_view wanted) const {
    for (size_t i = 0; i < available_.size(); ++i) {
      if (same_language_tag(tag(i), wanted)) return static_cast<int32_t>(i);
    }
    return kNone;
  }

  bool is_excluded(std::string_view language) const {
    for (const LanguageRange& range : excluded_) {
      if (range.range == "*" || same_language_tag(range.range, language) ||
          is_prefix_at_boundary(range.range, language)) {
        return true;
      }
    }
    return false;
  }

  std::string_view tag(size_t i) const { return available_[i]; }

  std::span<const LanguageRange> excluded_;
  std::span<const Tag> available_;
  int32_t default_index_ = kNone;
};

template <typename Tag>
LanguageChoice choose(const LanguagePreferences& preferences, std::span<const Tag> available,
                      std::string_view default_language) {
  const Matcher<Tag> matcher(preferences, available, default_language);
  LanguageChoice choice{LanguageOutcome::kHeaderMissing, default_language,
                        matcher.default_index()};
  if (!preferences.present()) return choice;
  const int32_t found = matcher.best(preferences.preferred());
  if (found == kNone) {
    choice.outcome = LanguageOutcome::kNoMatch;
    return choice;
  }
  choice.outcome = LanguageOutcome::kMatched;
  choice.language = available[static_cast<size_t>(found)];
  choice.index = found;
  return choice;
}

}  // namespace

bool same_language_tag(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

LanguageChoice choose_language(const LanguagePreferences& preferences,
                               std::span<const std::string_view> available,
                               std::string_view default_language) {
  return choose(preferences, available, default_language);
}

LanguageChoice choose_language(const LanguagePreferences& preferences,
                               std::span<const std::string> available,
                               std::string_view default_language) {
  return choose(preferences, available, default_language);
}

}  // namespace decision::localization
