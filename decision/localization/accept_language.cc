#include "decision/localization/accept_language.h"

namespace decision::localization {
namespace {

constexpr size_t kMaxSubtagLength = 8;

bool is_ows(char c) { return c == ' ' || c == '\t'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_ows(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_ows(text.back())) text.remove_suffix(1);
  return text;
}

// 1*8ALPHA *( "-" 1*8alphanum ) / "*"
bool is_language_range(std::string_view range) {
  if (range == "*") return true;
  size_t subtag_length = 0;
  bool first_subtag = true;
  for (const char c : range) {
    if (c == '-') {
      if (subtag_length == 0) return false;
      first_subtag = false;
      subtag_length = 0;
      continue;
    }
    if (!(is_alpha(c) || (!first_subtag && is_digit(c)))) return false;
    if (++subtag_length > kMaxSubtagLength) return false;
  }
  return subtag_length > 0;
}

// qvalue = "0" [ "." 0*3DIGIT ] / "1" [ "." 0*3"0" ]
std::optional<uint16_t> parse_qvalue(std::string_view text) {
  if (text.empty() || (text[0] != '0' && text[0] != '1')) return std::nullopt;
  if (text.size() > 1 && (text[1] != '.' || text.size() > 5)) return std::nullopt;
  uint16_t milli = text[0] == '1' ? 1000 : 0;
  uint16_t scale = 100;
  for (size_t i = 2; i < text.size(); ++i, scale /= 10) {
    if (!is_digit(text[i])) return std::nullopt;
    milli = static_cast<uint16_t>(milli + (text[i] - '0') * scale);
  }
  if (milli > 1000) return std::nullopt;  // "1.5" and the like
  return milli;
}

// [ ";" OWS "q" OWS "=" OWS qvalue ]: params is what follows the range, OWS-trimmed.
std::optional<uint16_t> parse_weight(std::string_view params) {
  if (params.empty()) return 1000;
  if (params.front() != ';') return std::nullopt;
  params = trim(params.substr(1));
  if (params.empty() || (params.front() != 'q' && params.front() != 'Q')) return std::nullopt;
  params = trim(params.substr(1));
  if (params.empty() || params.front() != '=') return std::nullopt;
  return parse_qvalue(trim(params.substr(1)));  // a second parameter fails here too
}

std::optional<LanguageRange> parse_item(std::string_view item) {
  size_t end = 0;
  while (end < item.size() && item[end] != ';' && !is_ows(item[end])) ++end;
  const std::string_view range = item.substr(0, end);
  if (!is_language_range(range)) return std::nullopt;
  const std::optional<uint16_t> q = parse_weight(trim(item.substr(end)));
  if (!q) return std::nullopt;
  return LanguageRange{range, *q};
}

}  // namespace

LanguagePreferences parse_accept_language(std::optional<std::string_view> header) {
  LanguagePreferences preferences;
  if (!header) return preferences;

  // In header order first; sorted below.
  size_t count = 0;
  std::string_view rest = *header;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;  // "#rule" lists allow empty elements
    const std::optional<LanguageRange> range = parse_item(item);
    if (!range) {
      ++preferences.malformed_items_;
    } else if (count == kMaxLanguageRanges) {
      ++preferences.ignored_items_;
    } else {
      preferences.ranges_[count++] = *range;
    }
  }

  // Insertion sort, stable, descending q: at most 16 items, and std::stable_sort may
  // allocate a buffer. q=0 items end up last, in header order: the excluded ones.
  auto& ranges = preferences.ranges_;
  for (size_t i = 1; i < count; ++i) {
    const LanguageRange moving = ranges[i];
    size_t j = i;
    for (; j > 0 && ranges[j - 1].q_milli < moving.q_milli; --j) ranges[j] = ranges[j - 1];
    ranges[j] = moving;
  }
  size_t preferred = 0;
  while (preferred < count && ranges[preferred].q_milli > 0) ++preferred;
  preferences.preferred_count_ = preferred;
  preferences.excluded_count_ = count - preferred;
  return preferences;
}

}  // namespace decision::localization
