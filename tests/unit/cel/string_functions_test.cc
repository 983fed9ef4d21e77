// size() and the string functions (cel-spec "String functions"); matches() is RE2, or
// its exact equivalent for literal patterns (literal_regex.h).
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <string>
#include <vector>

#include "cel/literal_regex.h"
#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

TEST(CelStringFunctions, SizeCountsCodePointsOfStringsAndBytesOfBytes) {
  CelRunner cel;
  EXPECT_EQ(cel.run("size('πέντε')"), "5");
  EXPECT_EQ(cel.run("'πέντε'.size()"), "5");
  EXPECT_EQ(cel.run("size(b'\\xff\\x00')"), "2");
  EXPECT_EQ(cel.run("size(bytes('é'))"), "2");
}

TEST(CelStringFunctions, SizeOfListsAndMaps) {
  CelRunner cel;
  EXPECT_EQ(cel.run("size([1, 2, 3]) + size({'a': 1})"), "4");
  EXPECT_EQ(cel.run("size(custom) + custom.tags.size()", R"({"custom":{"tags":["a","b"]}})"), "3");
  EXPECT_EQ(cel.run("size(1)"), "error: no matching overload");
}

TEST(CelStringFunctions, ContainsStartsWithEndsWith) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'abcd'.contains('bc') && 'abcd'.contains('')"), "true");
  EXPECT_EQ(cel.run("'abcd'.contains('db')"), "false");
  EXPECT_EQ(cel.run("'sports'.startsWith('sp') && !'sports'.startsWith('or')"), "true");
  EXPECT_EQ(cel.run("'sports'.endsWith('rts') && ''.endsWith('')"), "true");
  EXPECT_EQ(cel.run("'Straße'.contains('aß')"), "true");
  EXPECT_EQ(cel.run("'abc'.contains(1)"), "error: no matching overload");
  EXPECT_EQ(cel.run("b'abc'.startsWith(b'a')"), "error: no matching overload");
}

// An empty string literal has no storage: searching it must not hand memmem a null text.
TEST(CelStringFunctions, TheEmptyStringContainsOnlyTheEmptyString) {
  CelRunner cel;
  EXPECT_EQ(cel.run("''.contains('a')"), "false");
  EXPECT_EQ(cel.run("''.contains('')"), "true");
  EXPECT_EQ(cel.run("'ab'.contains('abc')"), "false");
}

TEST(CelStringFunctions, MatchesIsAPartialMatch) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'hubba'.matches('ubb')"), "true");
  EXPECT_EQ(cel.run("'hubba'.matches('^ubb')"), "false");
  EXPECT_EQ(cel.run("'alice-z'.matches('^a.*z$')"), "true");
  EXPECT_EQ(cel.run("matches('grey', 'gr(a|e)y')"), "true");
  EXPECT_EQ(cel.run("'mañana'.matches('a+ñ+a+')"), "true");  // UTF-8 aware
  EXPECT_EQ(cel.run("''.matches('')"), "true");
}

TEST(CelStringFunctions, MatchesWithAComputedPattern) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'abc'.matches(custom.p)", R"({"custom":{"p":"^a"}})"), "true");
  EXPECT_EQ(cel.run("'abc'.matches(custom.p)", R"({"custom":{"p":"a(b"}})"),
            "error: invalid regular expression");
  EXPECT_EQ(cel.run("1.matches('a')"), "error: no matching overload");
}

TEST(CelLiteralRegex, TakesOnlyLiteralTextAndDotStar) {
  for (const char* pattern :
       {"", "abc", "^abc", "abc$", "^abc$", "^a.*z$", "a.*b.*c", ".*", "^$", "^", "$", "é.*ß"}) {
    EXPECT_TRUE(LiteralRegex::from_pattern(pattern)) << pattern;
  }
  for (const char* pattern : {"a.b", "a*", "a+", "a?", "(a)", "[a]", "a|b", "a{2}", "\\d", "a.*?b",
                              "a.**", "^^a", "a$$", "a\nb"}) {
    EXPECT_FALSE(LiteralRegex::from_pattern(pattern)) << pattern;
  }
}

// The fast path must answer exactly as RE2 would, newlines included.
TEST(CelLiteralRegex, AgreesWithRe2) {
  const std::vector<std::string> patterns = {
      "",      "a",     "abc", "^abc", "abc$", "^abc$", "^a.*z$",    "a.*z",
      "^a.*z", "a.*z$", ".*",  "^.*$", "^$",   "b.*b",  "^a.*b.*c$", "ab.*.*ba",
      "z",     "^",     "$",   "x.*",  ".*x",  "é.*ß$"};
  const std::vector<std::string> texts = {"",         "a",      "z",    "az",    "abc",   "xabc",
                                          "abcx",     "a\nz",   "a z",  "abz\n", "\nabz", "aXbYc",
                                          "a\nb\nc",  "ab\nab", "abba", "bab",   "x\n",   "\nx",
                                          "abc\nabc", "z\na",   "éxß",  "a\n\nz"};
  for (const std::string& pattern : patterns) {
    const std::optional<LiteralRegex> literal = LiteralRegex::from_pattern(pattern);
    ASSERT_TRUE(literal) << pattern;
    const RE2 re2(pattern);
    ASSERT_TRUE(re2.ok()) << pattern;
    for (const std::string& text : texts) {
      EXPECT_EQ(literal->partial_match(text), RE2::PartialMatch(text, re2))
          << "pattern '" << pattern << "' text '" << text << "'";
    }
  }
}

TEST(CelStringFunctions, LiteralPatternsMatchLikeRe2InExpressions) {
  CelRunner cel;
  EXPECT_EQ(cel.run(R"('alice\nz'.matches('^a.*z$'))"), "false");  // '.' stops at newlines
  EXPECT_EQ(cel.run(R"('x\nabz'.matches('a.*z'))"), "true");
  EXPECT_EQ(cel.run(R"('x\nabz'.matches('^a.*z'))"), "false");
  EXPECT_EQ(cel.run("1.matches('^a.*z$')"), "error: no matching overload");
}

}  // namespace
}  // namespace cel
