#include "decision/catalog/json_syntax.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "decision/catalog/limits.h"

namespace decision::catalog {
namespace {

class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  std::optional<SyntaxError> run() {
    skip_space();
    if (value(0)) {
      skip_space();
      if (pos_ == text_.size()) return std::nullopt;
      fail("unexpected characters after the document");
    }
    return SyntaxError{position_of(text_, error_at_), what_};
  }

 private:
  bool fail(const char* what) {
    error_at_ = pos_;
    what_ = what;
    return false;
  }
  // Steps over the byte just checked; true, for `return consume();`.
  bool consume() {
    ++pos_;
    return true;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }

  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
      ++pos_;
  }

  bool value(uint32_t depth) {
    if (at_end()) return fail("unexpected end of input");
    switch (peek()) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"':
        return string();
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        break;
    }
    if (peek() == '-' || (peek() >= '0' && peek() <= '9')) return number();
    return fail("expected a value");
  }

  bool object(uint32_t depth) {
    if (depth > kMaxJsonDepth) return fail("nesting too deep");
    ++pos_;  // '{'
    skip_space();
    if (!at_end() && peek() == '}') return consume();
    while (true) {
      skip_space();
      if (at_end()) return fail("unexpected end of input");
      if (peek() != '"') return fail("expected a member name (a string)");
      if (!string()) return false;
      skip_space();
      if (at_end()) return fail("unexpected end of input");
      if (peek() != ':') return fail("expected ':'");
      ++pos_;
      skip_space();
      if (!value(depth)) return false;
      skip_space();
      if (at_end()) return fail("unexpected end of input");
      if (peek() == '}') return consume();
      if (peek() != ',') return fail("expected ',' or '}'");
      ++pos_;
    }
  }

  bool array(uint32_t depth) {
    if (depth > kMaxJsonDepth) return fail("nesting too deep");
    ++pos_;  // '['
    skip_space();
    if (!at_end() && peek() == ']') return consume();
    while (true) {
      skip_space();
      if (!value(depth)) return false;
      skip_space();
      if (at_end()) return fail("unexpected end of input");
      if (peek() == ']') return consume();
      if (peek() != ',') return fail("expected ',' or ']'");
      ++pos_;
    }
  }

  bool literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return fail("expected a value");
    pos_ += word.size();
    return true;
  }

  bool string() {
    ++pos_;  // '"'
    while (!at_end()) {
      const auto c = static_cast<unsigned char>(peek());
      if (c == '"') return consume();
      if (c < 0x20) return fail("control character in a string");
      if (c == '\\') {
        if (!escape()) return false;
      } else if (c >= 0x80) {
        if (!utf8()) return false;
      } else {
        ++pos_;
      }
    }
    return fail("unexpected end of input in a string");
  }

  bool escape() {
    ++pos_;  // '\'
    if (at_end()) return fail("unexpected end of input in a string");
    const char c = peek();
    if (std::string_view("\"\\/bfnrt").find(c) != std::string_view::npos) return consume();
    if (c != 'u') return fail("invalid escape in a string");
    ++pos_;
    for (int i = 0; i < 4; ++i, ++pos_) {
      if (at_end() || !std::isxdigit(static_cast<unsigned char>(peek())))
        return fail("invalid \\u escape");
    }
    return true;
  }

  // One UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF):
  // the lead byte fixes how many continuation bytes follow and the range of the first.
  bool utf8() {
    struct Lead {
      unsigned char first, last;
      int more;
      unsigned char low, high;
    };
    static constexpr Lead kLeads[] = {
        {0xc2, 0xdf, 1, 0x80, 0xbf}, {0xe0, 0xe0, 2, 0xa0, 0xbf}, {0xe1, 0xec, 2, 0x80, 0xbf},
        {0xed, 0xed, 2, 0x80, 0x9f}, {0xee, 0xef, 2, 0x80, 0xbf}, {0xf0, 0xf0, 3, 0x90, 0xbf},
        {0xf1, 0xf3, 3, 0x80, 0xbf}, {0xf4, 0xf4, 3, 0x80, 0x8f},
    };
    const auto byte = [&](size_t at) { return static_cast<unsigned char>(text_[at]); };
    const unsigned char lead = byte(pos_);
    for (const Lead& l : kLeads) {
      if (lead < l.first || lead > l.last) continue;
      for (int i = 1; i <= l.more; ++i) {
        const size_t at = pos_ + i;
        if (at >= text_.size()) return fail("invalid UTF-8");
        const unsigned char low = i == 1 ? l.low : 0x80, high = i == 1 ? l.high : 0xbf;
        if (byte(at) < low || byte(at) > high) return fail("invalid UTF-8");
      }
      pos_ += 1 + l.more;
      return true;
    }
    return fail("invalid UTF-8");
  }

  bool number() {
    const size_t start = pos_;
    bool integral = true;
    if (peek() == '-') ++pos_;
    if (at_end() || !digit()) return fail("invalid number");
    if (peek() == '0') {
      ++pos_;
    } else {
      while (!at_end() && digit()) ++pos_;
    }
    if (!at_end() && peek() == '.') {
      integral = false;
      ++pos_;
      if (at_end() || !digit()) return fail("invalid number");
      while (!at_end() && digit()) ++pos_;
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      integral = false;
      ++pos_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
      if (at_end() || !digit()) return fail("invalid number");
      while (!at_end() && digit()) ++pos_;
    }
    return in_range(text_.substr(start, pos_ - start), integral, start);
  }

  // simdjson refuses integers beyond 64 bits and doubles beyond the double range.
  bool in_range(std::string_view number, bool integral, size_t start) {
    const std::string copy(number);
    bool ok = true;
    if (integral) {
      errno = 0;
      if (copy[0] == '-') {
        (void)std::strtoll(copy.c_str(), nullptr, 10);
      } else {
        (void)std::strtoull(copy.c_str(), nullptr, 10);
      }
      ok = errno != ERANGE;
    } else {
      ok = std::isfinite(std::strtod(copy.c_str(), nullptr));  // underflow to 0 is fine
    }
    if (ok) return true;
    pos_ = start;
    return fail("number out of range");
  }

  bool digit() const { return peek() >= '0' && peek() <= '9'; }

  std::string_view text_;
  size_t pos_ = 0;
  size_t error_at_ = 0;
  const char* what_ = "";
};

}  // namespace

std::optional<SyntaxError> find_syntax_error(std::string_view text) { return Scanner(text).run(); }

TextPosition position_of(std::string_view text, size_t offset) {
  TextPosition position;
  position.offset = offset;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++position.line;
      position.column = 1;
    } else {
      ++position.column;
    }
  }
  return position;
}

}  // namespace decision::catalog
