// The lexer: CEL's tokens, literals delimited (not decoded), errors at the offending byte.
#include "cel/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cel {
namespace {

std::vector<TokenKind> kinds(std::string_view source) {
  Lexer lexer(source);
  std::vector<TokenKind> out;
  for (Token t = lexer.next(); t.kind != TokenKind::kEnd; t = lexer.next()) {
    out.push_back(t.kind);
    if (t.kind == TokenKind::kError) break;
  }
  return out;
}

std::vector<std::string> texts(std::string_view source) {
  Lexer lexer(source);
  std::vector<std::string> out;
  for (Token t = lexer.next(); t.kind != TokenKind::kEnd && t.kind != TokenKind::kError;
       t = lexer.next()) {
    out.emplace_back(t.text);
  }
  return out;
}

using K = TokenKind;

TEST(CelLexer, OperatorsTakeTheLongestMatch) {
  EXPECT_EQ(kinds("<= < >= > == != && || ! - + * / % ? : . , ( ) [ ] { }"),
            (std::vector<K>{K::kLessEqual,   K::kLess,         K::kGreaterEqual, K::kGreater,
                            K::kEqualEqual,  K::kNotEqual,     K::kAndAnd,       K::kOrOr,
                            K::kExclamation, K::kMinus,        K::kPlus,         K::kStar,
                            K::kSlash,       K::kPercent,      K::kQuestion,     K::kColon,
                            K::kDot,         K::kComma,        K::kLeftParen,    K::kRightParen,
                            K::kLeftBracket, K::kRightBracket, K::kLeftBrace,    K::kRightBrace}));
}

TEST(CelLexer, KeywordsAreNotIdentifiers) {
  EXPECT_EQ(kinds("true false null in inx"),
            (std::vector<K>{K::kTrue, K::kFalse, K::kNull, K::kIn, K::kIdent}));
}

TEST(CelLexer, NumbersByForm) {
  EXPECT_EQ(kinds("42 0x2A 42u 0x2AU 4.2 .5 1e3 1.5E-3"),
            (std::vector<K>{K::kInt, K::kInt, K::kUint, K::kUint, K::kDouble, K::kDouble,
                            K::kDouble, K::kDouble}));
}

TEST(CelLexer, IntegerFollowedByMemberCallIsTwoTokens) {
  EXPECT_EQ(texts("1.size()"), (std::vector<std::string>{"1", ".", "size", "(", ")"}));
}

TEST(CelLexer, MalformedNumbersAreOneError) {
  EXPECT_EQ(kinds("1abc").back(), K::kError);
  EXPECT_EQ(kinds("0x").back(), K::kError);
  EXPECT_EQ(kinds("1e").back(), K::kError);
  EXPECT_EQ(kinds("1.2.3").back(), K::kError);
}

TEST(CelLexer, StringPrefixesInEitherCaseAndOrder) {
  EXPECT_EQ(kinds("'a' \"b\" r'c' R\"d\" b'e' B'f' rb'g' BR'h' '''i''' \"\"\"j\"\"\""),
            (std::vector<K>{K::kString, K::kString, K::kString, K::kString, K::kBytes, K::kBytes,
                            K::kBytes, K::kBytes, K::kString, K::kString}));
}

TEST(CelLexer, EscapedQuoteDoesNotEndAString) {
  EXPECT_EQ(texts(R"('it\'s' "x")"), (std::vector<std::string>{R"('it\'s')", R"("x")"}));
}

TEST(CelLexer, RawStringEndsAtTheFirstQuote) {
  EXPECT_EQ(texts(R"(r'a\' 'b')"), (std::vector<std::string>{R"(r'a\')", "'b'"}));
}

TEST(CelLexer, TripleQuotedStringsSpanLines) {
  EXPECT_EQ(texts("'''a\n'b'\n''' 1"), (std::vector<std::string>{"'''a\n'b'\n'''", "1"}));
}

TEST(CelLexer, NewlineEndsNoSingleQuotedString) {
  Lexer lexer("'a\nb'");
  EXPECT_EQ(lexer.next().kind, K::kError);
  EXPECT_NE(lexer.error().find("newline"), std::string_view::npos);
}

TEST(CelLexer, UnterminatedStringIsAnErrorAtItsStart) {
  Lexer lexer("1 + 'abc");
  lexer.next();
  lexer.next();
  const Token t = lexer.next();
  EXPECT_EQ(t.kind, K::kError);
  EXPECT_EQ(t.offset, 4u);
}

TEST(CelLexer, QuotedIdentifiersInBackquotes) {
  EXPECT_EQ(texts("m.`content-type`"), (std::vector<std::string>{"m", ".", "`content-type`"}));
  EXPECT_EQ(kinds("m.`a$b`").back(), K::kError);
}

TEST(CelLexer, SingleEqualsAmpersandAndBarAreErrors) {
  EXPECT_EQ(kinds("a = b").back(), K::kError);
  EXPECT_EQ(kinds("a & b").back(), K::kError);
  EXPECT_EQ(kinds("a | b").back(), K::kError);
}

TEST(CelLexer, CommentsAndWhitespaceAreSkipped) {
  EXPECT_EQ(kinds("1 // one\n\t+ 2 // two"), (std::vector<K>{K::kInt, K::kPlus, K::kInt}));
}

TEST(CelLexer, TokensKnowTheirOffsets) {
  Lexer lexer("  ab + 12");
  EXPECT_EQ(lexer.next().offset, 2u);
  EXPECT_EQ(lexer.next().offset, 5u);
  EXPECT_EQ(lexer.next().offset, 7u);
  EXPECT_EQ(lexer.next().kind, K::kEnd);
  EXPECT_EQ(lexer.next().kind, K::kEnd);
}

}  // namespace
}  // namespace cel
