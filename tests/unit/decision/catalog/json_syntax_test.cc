// The syntax-error locator that gives simdjson's refusals a line and column.
#include "decision/catalog/json_syntax.h"

#include <gtest/gtest.h>

#include <string>

namespace decision::catalog {
namespace {

std::string what(std::string_view text) {
  const auto error = find_syntax_error(text);
  return error ? error->what : "ok";
}

uint64_t offset(std::string_view text) {
  const auto error = find_syntax_error(text);
  return error ? error->position.offset : ~uint64_t{0};
}

TEST(JsonSyntax, ValidDocumentsHaveNoError) {
  for (const char* ok :
       {"{}", " [1, -2.5e3, \"a\\u00e9\\n\", true, false, null, {\"k\": []}] ", "0", "\"é\""}) {
    EXPECT_EQ(what(ok), "ok") << ok;
  }
}

TEST(JsonSyntax, EachErrorIsNamedAtItsOffset) {
  EXPECT_EQ(what(""), "unexpected end of input");
  EXPECT_EQ(what("{\"a\": 1"), "unexpected end of input");
  EXPECT_EQ(offset("{\"a\": 1"), 7u);
  EXPECT_EQ(what("{\"a\" 1}"), "expected ':'");
  EXPECT_EQ(offset("{\"a\" 1}"), 5u);
  EXPECT_EQ(what("{\"a\": 1 \"b\": 2}"), "expected ',' or '}'");
  EXPECT_EQ(what("[1 2]"), "expected ',' or ']'");
  EXPECT_EQ(what("{a: 1}"), "expected a member name (a string)");
  EXPECT_EQ(what("[01]"), "expected ',' or ']'");
  EXPECT_EQ(what("[1.]"), "invalid number");
  EXPECT_EQ(what("[tru]"), "expected a value");
  EXPECT_EQ(what("[\"a\tb\"]"), "control character in a string");
  EXPECT_EQ(what("[\"\\x\"]"), "invalid escape in a string");
  EXPECT_EQ(what("[\"\\u12g4\"]"), "invalid \\u escape");
  EXPECT_EQ(what("[\"\xff\"]"), "invalid UTF-8");
  EXPECT_EQ(what("[\"\xc0\xaf\"]"), "invalid UTF-8");
  EXPECT_EQ(what("{} x"), "unexpected characters after the document");
  EXPECT_EQ(what("[1e999]"), "number out of range");
  EXPECT_EQ(what("[18446744073709551616]"), "number out of range");
  EXPECT_EQ(what(std::string(2000, '[') + std::string(2000, ']')), "nesting too deep");
}

TEST(JsonSyntax, PositionsCountLinesAndColumnsFromOne) {
  const TextPosition start = position_of("abc", 0);
  EXPECT_EQ(start.line, 1u);
  EXPECT_EQ(start.column, 1u);
  const TextPosition later = position_of("ab\ncd\nef", 7);
  EXPECT_EQ(later.line, 3u);
  EXPECT_EQ(later.column, 2u);
  EXPECT_EQ(later.offset, 7u);
}

}  // namespace
}  // namespace decision::catalog
