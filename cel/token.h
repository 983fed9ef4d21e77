#pragma once
// The tokens of CEL's lexical grammar (cel-spec doc/langdef.md, "Syntax").
#include <cstdint>
#include <string_view>

namespace cel {

enum class TokenKind : uint8_t {
  kEnd,
  kError,  // Lexer::error() says why
  kIdent,
  kQuotedIdent,  // `content-type`: a field name in backquotes, only after '.'
  kInt,          // 42, 0x2A (no sign: the parser folds a leading '-')
  kUint,         // 42u
  kDouble,       // 4.2, .5, 1e3
  kString,       // "..." '...' """...""" r"..." (text includes prefix and quotes)
  kBytes,        // b"..." and the other forms with a b prefix
  kTrue,
  kFalse,
  kNull,
  kIn,
  kLeftParen,
  kRightParen,
  kLeftBracket,
  kRightBracket,
  kLeftBrace,
  kRightBrace,
  kDot,
  kComma,
  kColon,
  kQuestion,
  kExclamation,
  kMinus,
  kPlus,
  kStar,
  kSlash,
  kPercent,
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kEqualEqual,
  kNotEqual,
  kAndAnd,
  kOrOr,
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  uint32_t offset = 0;    // byte offset of the first character in the source
  std::string_view text;  // the token's characters, as written
};

// How a token reads in a syntax error: "')'", "identifier 'foo'", "end of input".
std::string_view describe(TokenKind kind);

}  // namespace cel
