#include "cel/literals.h"

#include <charconv>
#include <cmath>

#include "absl/strings/charconv.h"
#include "cel/utf8.h"
#include "runtime/check.h"

namespace cel {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_octal(char c) { return c >= '0' && c <= '7'; }

// Reads `count` hex digits at text[at]; -1 when any is missing or not hex.
int64_t hex_number(std::string_view text, size_t at, size_t count) {
  if (at + count > text.size()) return -1;
  int64_t value = 0;
  for (size_t i = 0; i < count; ++i) {
    const int digit = hex_value(text[at + i]);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

// One escape sequence at body[at] == '\\'; appends its value and returns its length, or 0.
size_t decode_escape(std::string_view body, size_t at, bool bytes, std::string& out,
                     LiteralError& error) {
  const auto refuse = [&](std::string_view message) -> size_t {
    error = LiteralError{message, at};
    return 0;
  };
  if (at + 1 >= body.size()) return refuse("escape at the end of a literal");
  const char c = body[at + 1];
  switch (c) {
    case 'a': out.push_back('\a'); return 2;
    case 'b': out.push_back('\b'); return 2;
    case 'f': out.push_back('\f'); return 2;
    case 'n': out.push_back('\n'); return 2;
    case 'r': out.push_back('\r'); return 2;
    case 't': out.push_back('\t'); return 2;
    case 'v': out.push_back('\v'); return 2;
    case '\\':
    case '\'':
    case '"':
    case '`':
    case '?': out.push_back(c); return 2;
    default: break;
  }
  int64_t value = -1;
  size_t length = 0;
  if (c == 'x' || c == 'X') {
    value = hex_number(body, at + 2, 2);
    length = 4;
  } else if (c == 'u' || c == 'U') {
    if (bytes) return refuse("\\u and \\U escapes are not allowed in bytes");
    length = c == 'u' ? 6 : 10;
    value = hex_number(body, at + 2, length - 2);
    if (value < 0) return refuse("malformed unicode escape");
    if ((value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) {
      return refuse("unicode escape is not a scalar value");
    }
  } else if (c >= '0' && c <= '3') {
    if (at + 3 < body.size() && is_octal(body[at + 2]) && is_octal(body[at + 3])) {
      value = (c - '0') * 64 + (body[at + 2] - '0') * 8 + (body[at + 3] - '0');
      length = 4;
    }
  }
  if (value < 0) return refuse("invalid escape sequence");
  if (bytes) {
    DECISIOND_CHECK(value <= 0xFF);  // two hex or three octal digits (\u is refused above)
    out.push_back(static_cast<char>(value));
  } else {
    append_utf8(static_cast<uint32_t>(value), out);
  }
  return length;
}

}  // namespace

bool decode_quoted(std::string_view token_text, std::string& out, LiteralError& error) {
  size_t prefix = 0;
  bool raw = false;
  bool bytes = false;
  while (prefix < token_text.size() && token_text[prefix] != '"' && token_text[prefix] != '\'') {
    const char p = token_text[prefix++];
    raw = raw || p == 'r' || p == 'R';
    bytes = bytes || p == 'b' || p == 'B';
  }
  const std::string_view quoted = token_text.substr(prefix);
  const size_t quote_length =
      quoted.size() >= 6 && quoted[1] == quoted[0] && quoted[2] == quoted[0] ? 3 : 1;
  // The lexer hands over a literal with both of its quotes.
  DECISIOND_CHECK(quoted.size() >= 2 * quote_length);
  const std::string_view body = quoted.substr(quote_length, quoted.size() - 2 * quote_length);
  const size_t body_offset = prefix + quote_length;

  out.clear();
  out.reserve(body.size());
  size_t at = 0;
  while (at < body.size()) {
    if (body[at] != '\\' || raw) {
      out.push_back(body[at++]);
      continue;
    }
    const size_t length = decode_escape(body, at, bytes, out, error);
    if (length == 0) {
      error.offset += body_offset;
      return false;
    }
    at += length;
  }
  return true;
}

std::optional<uint64_t> integer_magnitude(std::string_view token_text) {
  if (!token_text.empty() && (token_text.back() == 'u' || token_text.back() == 'U')) {
    token_text.remove_suffix(1);
  }
  int base = 10;
  if (token_text.size() > 2 && token_text[0] == '0' &&
      (token_text[1] == 'x' || token_text[1] == 'X')) {
    token_text.remove_prefix(2);
    base = 16;
  }
  uint64_t value = 0;
  const char* end = token_text.data() + token_text.size();
  const auto [ptr, ec] = std::from_chars(token_text.data(), end, value, base);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<double> double_literal(std::string_view token_text) {
  double value = 0;
  const char* end = token_text.data() + token_text.size();
  // absl::from_chars, unlike strtod, ignores the locale; on underflow it stores 0.
  const absl::from_chars_result result = absl::from_chars(token_text.data(), end, value);
  if (result.ptr != end) return std::nullopt;
  if (result.ec == std::errc::result_out_of_range) {
    if (std::abs(value) > 1.0) return std::nullopt;
    return 0.0;
  }
  if (result.ec != std::errc()) return std::nullopt;
  return value;
}

}  // namespace cel
