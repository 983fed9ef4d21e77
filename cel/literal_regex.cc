#include "cel/literal_regex.h"
#include "cel/text_search.h"
#include "runtime/check.h"

namespace cel {
namespace {

// RE2's metacharacters, and the newline a literal segment must not hold (matches never
// cross lines, which the line-by-line search relies on).
bool is_literal_char(char c) {
  switch (c) {
    case '\\':
    case '.':
    case '^':
    case '$':
    case '|':
    case '?':
    case '*':
    case '+':
    case '(':
    case ')':
    case '[':
    case ']':
    case '{':
    case '}':
    case '\n': return false;
    default: return true;
  }
}

}  // namespace

std::optional<LiteralRegex> LiteralRegex::from_pattern(std::string_view pattern) {
  LiteralRegex regex;
  if (!pattern.empty() && pattern.front() == '^') {
    regex.anchored_start_ = true;
    pattern.remove_prefix(1);
  }
  if (!pattern.empty() && pattern.back() == '$') {
    regex.anchored_end_ = true;
    pattern.remove_suffix(1);
  }
  std::string segment;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '.' && i + 1 < pattern.size() && pattern[i + 1] == '*') {
      regex.segments_.push_back(std::move(segment));
      segment.clear();
      ++i;
    } else if (is_literal_char(c)) {
      segment.push_back(c);
    } else {
      return std::nullopt;
    }
  }
  regex.segments_.push_back(std::move(segment));
  return regex;
}

bool LiteralRegex::partial_match(std::string_view text) const {
  // Anchored at both ends, the match is the whole text: one line only.
  const size_t first_newline = text.find('\n');
  if (first_newline == std::string_view::npos) return matches_line(text, true, true);
  if (anchored_start_ && anchored_end_) return false;
  if (anchored_start_) return matches_line(text.substr(0, first_newline), true, false);
  if (anchored_end_) return matches_line(text.substr(text.rfind('\n') + 1), false, true);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (matches_line(text.substr(start, end - start), start == 0, end == text.size())) return true;
    start = end + 1;
  }
  return false;
}

// Leftmost-first placement of each segment is optimal: an earlier end leaves the most room
// for the segments after it.
bool LiteralRegex::matches_line(std::string_view line, bool at_text_start, bool at_text_end) const {
  DECISIOND_CHECK(!segments_.empty());  // from_pattern makes one at least, even empty
  const bool start_anchor = anchored_start_;
  const bool end_anchor = anchored_end_;
  if ((start_anchor && !at_text_start) || (end_anchor && !at_text_end)) return false;
  const size_t last = segments_.size() - 1;
  size_t position = 0;
  for (size_t i = 0; i <= last; ++i) {
    const std::string_view segment = segments_[i];
    if (i == last && end_anchor) {
      if (line.size() < position + segment.size() || !line.ends_with(segment)) return false;
      return last > 0 || !start_anchor || line.size() == segment.size();
    }
    if (i == 0 && start_anchor) {
      if (!line.starts_with(segment)) return false;
      position = segment.size();
      continue;
    }
    const size_t found = find_text(line, segment, position);
    if (found == std::string_view::npos) return false;
    position = found + segment.size();
  }
  return true;
}

}  // namespace cel
