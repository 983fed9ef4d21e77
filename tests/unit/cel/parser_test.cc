// The grammar: precedence and associativity, literals, and syntax errors with positions.
// Shapes are checked through evaluation where that is the clearest statement of the rule.
#include "cel/parser.h"

#include <gtest/gtest.h>

#include <string>

#include "cel/limits.h"
#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

std::string syntax_error(std::string_view source) {
  const absl::StatusOr<Ast> ast = parse(source);
  return ast.ok() ? "ok" : std::string(ast.status().message());
}

TEST(CelParser, MultiplicationBindsTighterThanAddition) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1 + 2 * 3"), "7");
  EXPECT_EQ(cel.run("(1 + 2) * 3"), "9");
  EXPECT_EQ(cel.run("10 - 4 - 3"), "3");  // left-associative
  EXPECT_EQ(cel.run("100 / 10 / 5"), "2");
}

TEST(CelParser, RelationsBindTighterThanAndWhichBindsTighterThanOr) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1 < 2 && 2 < 1 || 3 == 3"), "true");
  EXPECT_EQ(cel.run("true || false && false"), "true");
  EXPECT_EQ(cel.run("1 + 1 == 2"), "true");
}

TEST(CelParser, ConditionalIsRightAssociativeAndLowest) {
  CelRunner cel;
  EXPECT_EQ(cel.run("false ? 1 : true ? 2 : 3"), "2");
  EXPECT_EQ(cel.run("1 < 2 ? 'a' : 'b'"), "\"a\"");
}

TEST(CelParser, MinusBeforeANumberIsPartOfTheLiteral) {
  CelRunner cel;
  EXPECT_EQ(cel.run("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(cel.run("- 5"), "-5");
  EXPECT_EQ(cel.run("-2.5"), "-2.5");
  EXPECT_EQ(cel.run("1 -1"), "0");  // binary minus
}

TEST(CelParser, EvenRunsOfNotAndMinusCancel) {
  CelRunner cel;
  EXPECT_EQ(cel.run("!!true"), "true");
  EXPECT_EQ(cel.run("!!!true"), "false");
  EXPECT_EQ(cel.run("--5"), "5");
  EXPECT_EQ(cel.run("---5"), "-5");
}

TEST(CelParser, IntegerLiteralsOutOfRangeAreRefused) {
  EXPECT_EQ(syntax_error("9223372036854775808"), "1:1: syntax error: int literal out of range");
  EXPECT_EQ(syntax_error("18446744073709551616u"), "1:1: syntax error: uint literal out of range");
  EXPECT_EQ(syntax_error("-9223372036854775809"), "1:1: syntax error: int literal out of range");
  EXPECT_EQ(syntax_error("1e999"), "1:1: syntax error: double literal out of range");
}

TEST(CelParser, HexAndUnsignedLiterals) {
  CelRunner cel;
  EXPECT_EQ(cel.run("0x55555555"), "1431655765");
  EXPECT_EQ(cel.run("-0x10"), "-16");
  EXPECT_EQ(cel.run("18446744073709551615u"), "18446744073709551615");
  EXPECT_EQ(cel.run("1e-400"), "0.0");  // underflow rounds to zero
}

TEST(CelParser, StringEscapesDenoteCodePoints) {
  CelRunner cel;
  EXPECT_EQ(cel.run(R"('\u00e9' == 'é')"), "true");
  EXPECT_EQ(cel.run(R"('\U0001F431' == '🐱')"), "true");
  EXPECT_EQ(cel.run(R"('\xe9' == 'é')"), "true");  // a code point, not a byte
  EXPECT_EQ(cel.run(R"('\351' == 'é')"), "true");  // octal too
  EXPECT_EQ(cel.run(R"("\a\b\f\n\r\t\v\"\'\\\`\?")"),
            "\"\\u0007\\b\\f\\n\\r\\t\\u000b\\\"'\\\\`?\"");
}

TEST(CelParser, BytesEscapesDenoteBytes) {
  CelRunner cel;
  EXPECT_EQ(cel.run(R"(b'\xff' == b'\377')"), "true");
  EXPECT_EQ(cel.run(R"(size(b'\xff'))"), "1");
  EXPECT_EQ(cel.run(R"(size(b'ÿ'))"), "2");  // UTF-8 of the character
  EXPECT_EQ(syntax_error(R"(b'\u00ff')"),
            "1:3: syntax error: \\u and \\U escapes are not allowed in bytes");
}

TEST(CelParser, InvalidEscapesAreRefusedWhereTheyStand) {
  EXPECT_EQ(syntax_error(R"('ab\q')"), "1:4: syntax error: invalid escape sequence");
  EXPECT_EQ(syntax_error(R"('\ud800')"), "1:2: syntax error: unicode escape is not a scalar value");
  EXPECT_EQ(syntax_error(R"('\x4')"), "1:2: syntax error: invalid escape sequence");
}

TEST(CelParser, RawStringsKeepBackslashes) {
  CelRunner cel;
  EXPECT_EQ(cel.run(R"(r'\d+')"), R"("\\d+")");
  EXPECT_EQ(cel.run(R"(size(r'\n'))"), "2");
}

TEST(CelParser, TrailingCommasInListsAndMaps) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[1, 2,]"), "[1,2]");
  EXPECT_EQ(cel.run("{'a': 1,}"), "{\"a\":1}");
  EXPECT_EQ(syntax_error("f(1,)"), "1:5: syntax error: unexpected ')'");
}

TEST(CelParser, SyntaxErrorsPointAtTheToken) {
  EXPECT_EQ(syntax_error("1 +"), "1:4: syntax error: unexpected end of input");
  EXPECT_EQ(syntax_error("(1 + 2"), "1:7: syntax error: expected ')', found end of input");
  EXPECT_EQ(syntax_error("a b"), "1:3: syntax error: unexpected identifier");
  EXPECT_EQ(syntax_error("1 = 2"), "1:3: syntax error: unexpected '=' (equality is '==')");
  EXPECT_EQ(syntax_error("true ? 1"),
            "1:9: syntax error: expected ':' of the conditional, found end of input");
}

TEST(CelParser, PositionsCountLinesAndCodePoints) {
  EXPECT_EQ(syntax_error("1 +\n  2 +\n  )"), "3:3: syntax error: unexpected ')'");
  EXPECT_EQ(syntax_error("'é' + )"), "1:7: syntax error: unexpected ')'");
}

TEST(CelParser, ReservedWordsAreNotIdentifiers) {
  EXPECT_EQ(syntax_error("if"), "1:1: syntax error: reserved identifier 'if'");
  EXPECT_EQ(syntax_error("x.while"), "ok");  // a field name may be anything
}

TEST(CelParser, MessageConstructionAndOptionalsAreRefusedByName) {
  EXPECT_EQ(syntax_error("Foo{a: 1}"), "1:4: syntax error: message construction is not supported");
  EXPECT_EQ(syntax_error("a.?b"),
            "1:3: syntax error: optional field selection '.?' is not supported");
  EXPECT_EQ(syntax_error("a[?0]"), "1:3: syntax error: optional index '[?' is not supported");
}

TEST(CelParser, QuotedFieldNames) {
  CelRunner cel;
  EXPECT_EQ(cel.run("{'content-type': 'json'}.`content-type`"), "\"json\"");
}

TEST(CelParser, LeadingDotNamesTheRootScope) {
  CelRunner cel;
  EXPECT_EQ(cel.run(".custom.a", R"({"custom":{"a":1}})"), "1");
}

TEST(CelParser, DeepNestingIsRefused) {
  const std::string deep =
      std::string(kMaxNestingDepth + 1, '(') + "1" + std::string(kMaxNestingDepth + 1, ')');
  EXPECT_NE(syntax_error(deep).find("nests too deeply"), std::string::npos);
  std::string chain = "1";
  for (uint32_t i = 0; i < kMaxNestingDepth + 1; ++i) chain += " + 1";
  EXPECT_NE(syntax_error(chain).find("nests too deeply"), std::string::npos);
}

TEST(CelParser, ManyNodesAreRefused) {
  std::string list = "[";
  for (size_t i = 0; i < kMaxSyntaxNodes; ++i) list += "1,";
  list += "]";
  EXPECT_NE(syntax_error(list).find("expression too large"), std::string::npos);
}

}  // namespace
}  // namespace cel
