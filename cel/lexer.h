#pragma once
// Splits a CEL source into tokens, one at a time. Whitespace and // comments are skipped.
// Literals are delimited here and decoded by literals.h, so the lexer allocates nothing.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "cel/token.h"
#include "runtime/check.h"

namespace cel {

class Lexer {
 public:
  // Offsets are 32-bit: compile() bounds the source far below (limits.h), checked.
  explicit Lexer(std::string_view source) : source_(source) { DECISIOND_CHECK(source.size() <= UINT32_MAX); }

  // kEnd at the end, forever after; kError with error() set at a character that starts no
  // token (or an unterminated literal).
  Token next();
  std::string_view error() const { return error_; }

 private:
  Token number(size_t start);
  Token quoted(size_t start, size_t quote_at, TokenKind kind, bool raw);
  Token quoted_identifier(size_t start);
  Token word(size_t start);
  Token make(TokenKind kind, size_t start, size_t end);
  Token fail(size_t start, std::string_view message);
  void skip_space_and_comments();
  char peek(size_t ahead = 0) const {
    return position_ + ahead < source_.size() ? source_[position_ + ahead] : '\0';
  }

  std::string_view source_;
  size_t position_ = 0;
  std::string_view error_;
};

}  // namespace cel
