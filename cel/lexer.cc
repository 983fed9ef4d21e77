#include "cel/lexer.h"

#include "runtime/check.h"

namespace cel {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_word_start(char c) { return is_letter(c) || c == '_'; }
bool is_word_char(char c) { return is_word_start(c) || is_digit(c); }
bool is_quote(char c) { return c == '"' || c == '\''; }

// The characters cel-spec allows between backquotes.
bool is_quoted_identifier_char(char c) {
  return is_word_char(c) || c == '.' || c == '-' || c == '/' || c == ' ';
}

}  // namespace

std::string_view describe(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEnd: return "end of input";
    case TokenKind::kError: return "invalid token";
    case TokenKind::kIdent: return "identifier";
    case TokenKind::kQuotedIdent: return "quoted identifier";
    case TokenKind::kInt:
    case TokenKind::kUint:
    case TokenKind::kDouble: return "number";
    case TokenKind::kString: return "string";
    case TokenKind::kBytes: return "bytes";
    case TokenKind::kTrue: return "'true'";
    case TokenKind::kFalse: return "'false'";
    case TokenKind::kNull: return "'null'";
    case TokenKind::kIn: return "'in'";
    case TokenKind::kLeftParen: return "'('";
    case TokenKind::kRightParen: return "')'";
    case TokenKind::kLeftBracket: return "'['";
    case TokenKind::kRightBracket: return "']'";
    case TokenKind::kLeftBrace: return "'{'";
    case TokenKind::kRightBrace: return "'}'";
    case TokenKind::kDot: return "'.'";
    case TokenKind::kComma: return "','";
    case TokenKind::kColon: return "':'";
    case TokenKind::kQuestion: return "'?'";
    case TokenKind::kExclamation: return "'!'";
    case TokenKind::kMinus: return "'-'";
    case TokenKind::kPlus: return "'+'";
    case TokenKind::kStar: return "'*'";
    case TokenKind::kSlash: return "'/'";
    case TokenKind::kPercent: return "'%'";
    case TokenKind::kLess: return "'<'";
    case TokenKind::kLessEqual: return "'<='";
    case TokenKind::kGreater: return "'>'";
    case TokenKind::kGreaterEqual: return "'>='";
    case TokenKind::kEqualEqual: return "'=='";
    case TokenKind::kNotEqual: return "'!='";
    case TokenKind::kAndAnd: return "'&&'";
    case TokenKind::kOrOr: return "'||'";
  }
  return "token";
}

Token Lexer::make(TokenKind kind, size_t start, size_t end) {
  DECISIOND_CHECK(start <= end && end <= source_.size());
  position_ = end;
  return Token{kind, static_cast<uint32_t>(start), source_.substr(start, end - start)};
}

Token Lexer::fail(size_t start, std::string_view message) {
  error_ = message;
  position_ = source_.size();  // nothing after an error is read
  return Token{TokenKind::kError, static_cast<uint32_t>(start), {}};
}

void Lexer::skip_space_and_comments() {
  while (position_ < source_.size()) {
    const char c = source_[position_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      ++position_;
    } else if (c == '/' && peek(1) == '/') {
      while (position_ < source_.size() && source_[position_] != '\n') ++position_;
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  skip_space_and_comments();
  const size_t start = position_;
  if (start >= source_.size()) return Token{TokenKind::kEnd, static_cast<uint32_t>(start), {}};
  const char c = source_[start];
  if (is_word_start(c)) return word(start);
  if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number(start);
  if (is_quote(c)) return quoted(start, start, TokenKind::kString, false);
  if (c == '`') return quoted_identifier(start);

  const char n = peek(1);
  switch (c) {
    case '(': return make(TokenKind::kLeftParen, start, start + 1);
    case ')': return make(TokenKind::kRightParen, start, start + 1);
    case '[': return make(TokenKind::kLeftBracket, start, start + 1);
    case ']': return make(TokenKind::kRightBracket, start, start + 1);
    case '{': return make(TokenKind::kLeftBrace, start, start + 1);
    case '}': return make(TokenKind::kRightBrace, start, start + 1);
    case '.': return make(TokenKind::kDot, start, start + 1);
    case ',': return make(TokenKind::kComma, start, start + 1);
    case ':': return make(TokenKind::kColon, start, start + 1);
    case '?': return make(TokenKind::kQuestion, start, start + 1);
    case '-': return make(TokenKind::kMinus, start, start + 1);
    case '+': return make(TokenKind::kPlus, start, start + 1);
    case '*': return make(TokenKind::kStar, start, start + 1);
    case '/': return make(TokenKind::kSlash, start, start + 1);
    case '%': return make(TokenKind::kPercent, start, start + 1);
    case '!':
      return n == '=' ? make(TokenKind::kNotEqual, start, start + 2)
                      : make(TokenKind::kExclamation, start, start + 1);
    case '<':
      return n == '=' ? make(TokenKind::kLessEqual, start, start + 2)
                      : make(TokenKind::kLess, start, start + 1);
    case '>':
      return n == '=' ? make(TokenKind::kGreaterEqual, start, start + 2)
                      : make(TokenKind::kGreater, start, start + 1);
    case '=':
      if (n == '=') return make(TokenKind::kEqualEqual, start, start + 2);
      return fail(start, "unexpected '=' (equality is '==')");
    case '&':
      if (n == '&') return make(TokenKind::kAndAnd, start, start + 2);
      return fail(start, "unexpected '&' (logical and is '&&')");
    case '|':
      if (n == '|') return make(TokenKind::kOrOr, start, start + 2);
      return fail(start, "unexpected '|' (logical or is '||')");
    default: return fail(start, "unexpected character");
  }
}

Token Lexer::word(size_t start) {
  size_t end = start;
  while (end < source_.size() && is_word_char(source_[end])) ++end;
  const std::string_view text = source_.substr(start, end - start);
  // String prefixes: r (raw), b (bytes), in either case and either order.
  if (end < source_.size() && is_quote(source_[end]) && text.size() <= 2) {
    bool raw = false;
    bool bytes = false;
    bool prefix = true;
    for (const char p : text) {
      if ((p == 'r' || p == 'R') && !raw) {
        raw = true;
      } else if ((p == 'b' || p == 'B') && !bytes) {
        bytes = true;
      } else {
        prefix = false;
      }
    }
    if (prefix) return quoted(start, end, bytes ? TokenKind::kBytes : TokenKind::kString, raw);
  }
  if (text == "true") return make(TokenKind::kTrue, start, end);
  if (text == "false") return make(TokenKind::kFalse, start, end);
  if (text == "null") return make(TokenKind::kNull, start, end);
  if (text == "in") return make(TokenKind::kIn, start, end);
  return make(TokenKind::kIdent, start, end);
}

Token Lexer::number(size_t start) {
  size_t end = start;
  const auto digits = [&](auto is_wanted) {
    const size_t from = end;
    while (end < source_.size() && is_wanted(source_[end])) ++end;
    return end - from;
  };
  bool is_double = false;
  if (source_[start] == '0' && end + 1 < source_.size() &&
      (source_[start + 1] == 'x' || source_[start + 1] == 'X')) {
    end += 2;
    if (digits(is_hex_digit) == 0) return fail(start, "malformed hexadecimal number");
  } else {
    digits(is_digit);
    if (end + 1 < source_.size() && source_[end] == '.' && is_digit(source_[end + 1])) {
      ++end;
      digits(is_digit);
      is_double = true;
    }
    if (end < source_.size() && (source_[end] == 'e' || source_[end] == 'E')) {
      ++end;
      if (end < source_.size() && (source_[end] == '+' || source_[end] == '-')) ++end;
      if (digits(is_digit) == 0) return fail(start, "malformed number exponent");
      is_double = true;
    }
  }
  TokenKind kind = is_double ? TokenKind::kDouble : TokenKind::kInt;
  if (!is_double && end < source_.size() && (source_[end] == 'u' || source_[end] == 'U')) {
    ++end;
    kind = TokenKind::kUint;
  }
  if (end < source_.size() && (is_word_char(source_[end]) || source_[end] == '.')) {
    // "1abc", "0x1g", "1.2.3", "1u2": one malformed number, not two tokens.
    if (source_[end] != '.' || (end + 1 < source_.size() && is_digit(source_[end + 1]))) {
      return fail(start, "malformed number");
    }
  }
  return make(kind, start, end);
}

Token Lexer::quoted(size_t start, size_t quote_at, TokenKind kind, bool raw) {
  const char quote = source_[quote_at];
  const bool triple = quote_at + 2 < source_.size() && source_[quote_at + 1] == quote &&
                      source_[quote_at + 2] == quote;
  size_t at = quote_at + (triple ? 3 : 1);
  while (at < source_.size()) {
    const char c = source_[at];
    if (c == '\\' && !raw) {
      at += 2;
      continue;
    }
    if (c == quote) {
      if (!triple) return make(kind, start, at + 1);
      if (at + 2 < source_.size() && source_[at + 1] == quote && source_[at + 2] == quote) {
        return make(kind, start, at + 3);
      }
    }
    if (!triple && (c == '\n' || c == '\r')) {
      return fail(start, "newline in a quoted literal (use a triple-quoted one)");
    }
    ++at;
  }
  return fail(start, "unterminated quoted literal");
}

Token Lexer::quoted_identifier(size_t start) {
  size_t end = start + 1;
  while (end < source_.size() && is_quoted_identifier_char(source_[end])) ++end;
  if (end >= source_.size() || source_[end] != '`' || end == start + 1) {
    return fail(start, "malformed quoted identifier");
  }
  return make(TokenKind::kQuotedIdent, start, end + 1);
}

}  // namespace cel
