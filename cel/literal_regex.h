#pragma once
// Regular expressions made only of literal text joined by ".*", optionally anchored:
// "^a.*z$", "^sports", "-ios$", "^com.example" is not one ('.' alone is any character).
// Targeting rules use this shape most, and it matches by substring search in ~10 ns where
// RE2 takes ~150 ns a call (perf/cel_bench.cc), mostly fixed overhead; RE2 also takes a
// shared lock on its DFA cache per match, which every core would contend for.
//
// The result is RE2's partial match exactly (string_functions_test.cc checks the two
// against each other): RE2's '.' matches any character but '\n', its '^' and '$' (no
// multi-line flag) match only at the ends of the text, so a match never crosses a line.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cel {

class LiteralRegex {
 public:
  // nullopt when the pattern has any other regular-expression syntax (RE2 handles it).
  static std::optional<LiteralRegex> from_pattern(std::string_view pattern);

  // Whether the pattern matches anywhere in text (RE2::PartialMatch).
  bool partial_match(std::string_view text) const;

 private:
  bool matches_line(std::string_view line, bool at_text_start, bool at_text_end) const;

  std::vector<std::string> segments_;  // the literals between ".*", at least one
  bool anchored_start_ = false;
  bool anchored_end_ = false;
};

}  // namespace cel
