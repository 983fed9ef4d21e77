#include "cel/conversions.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "absl/strings/charconv.h"
#include "cel/error_values.h"
#include "cel/utf8.h"
#include "runtime/check.h"

namespace cel {
namespace {

// Go's strconv.ParseInt/ParseUint(s, 10, 64): optional sign, decimal digits, nothing else.
template <typename T>
bool parse_decimal(std::string_view text, T& out) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return false;
  }
  if (text.empty()) return false;
  if constexpr (std::is_unsigned_v<T>) {
    if (text.front() == '-') return false;
  }
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out, 10);
  return ec == std::errc() && ptr == end;
}

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] + 32) : a[i];
    if (x != b[i]) return false;
  }
  return true;
}

// Go's strconv.ParseFloat(s, 64): decimal or special values, optional sign.
bool parse_double(std::string_view text, double& out) {
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (equals_ignoring_case(text, "inf") || equals_ignoring_case(text, "infinity")) {
    out = negative ? -HUGE_VAL : HUGE_VAL;
    return true;
  }
  if (equals_ignoring_case(text, "nan")) {
    out = std::nan("");
    return true;
  }
  const bool starts_number =
      !text.empty() &&
      (std::isdigit(static_cast<unsigned char>(text.front())) || text.front() == '.');
  if (!starts_number) return false;
  const char* end = text.data() + text.size();
  const absl::from_chars_result result = absl::from_chars(text.data(), end, out);
  if (result.ptr != end || result.ec == std::errc::invalid_argument) return false;
  if (result.ec == std::errc::result_out_of_range && std::abs(out) > 1.0) return false;
  if (negative) out = -out;
  return true;
}

Value copy_text(std::string_view text, Arena& arena, uint32_t offset) {
  const std::optional<std::string_view> copy = arena.copy(text);
  if (!copy) return Value::error(ErrorCode::kLimitExceeded, offset);
  return Value::string(*copy);
}

}  // namespace

Value to_int(const Value& value, uint32_t offset) {
  switch (value.kind()) {
    case Kind::kInt: return value;
    case Kind::kUint:
      if (value.as_uint() > static_cast<uint64_t>(INT64_MAX)) return range_error(offset);
      return Value::integer(static_cast<int64_t>(value.as_uint()));
    case Kind::kDouble: {
      const double d = value.as_double();
      if (!(d > -kTwoTo63 && d < kTwoTo63)) return range_error(offset);  // NaN fails too
      return Value::integer(static_cast<int64_t>(d));
    }
    case Kind::kString: {
      int64_t parsed = 0;
      if (!parse_decimal(value.as_text(), parsed)) return bad_conversion(offset);
      return Value::integer(parsed);
    }
    default: return no_overload(offset);
  }
}

Value to_uint(const Value& value, uint32_t offset) {
  switch (value.kind()) {
    case Kind::kUint: return value;
    case Kind::kInt:
      if (value.as_int() < 0) return range_error(offset);
      return Value::unsigned_integer(static_cast<uint64_t>(value.as_int()));
    case Kind::kDouble: {
      const double d = value.as_double();
      if (!(d >= 0 && d < kTwoTo64)) return range_error(offset);
      return Value::unsigned_integer(static_cast<uint64_t>(d));
    }
    case Kind::kString: {
      uint64_t parsed = 0;
      if (!parse_decimal(value.as_text(), parsed)) return bad_conversion(offset);
      return Value::unsigned_integer(parsed);
    }
    default: return no_overload(offset);
  }
}

Value to_double(const Value& value, uint32_t offset) {
  switch (value.kind()) {
    case Kind::kDouble: return value;
    case Kind::kInt: return Value::floating(static_cast<double>(value.as_int()));
    case Kind::kUint: return Value::floating(static_cast<double>(value.as_uint()));
    case Kind::kString: {
      double parsed = 0;
      if (!parse_double(value.as_text(), parsed)) return bad_conversion(offset);
      return Value::floating(parsed);
    }
    default: return no_overload(offset);
  }
}

Value to_string(const Value& value, Arena& arena, uint32_t offset) {
  char buffer[32];
  switch (value.kind()) {
    case Kind::kString: return value;
    case Kind::kBool: return Value::string(value.as_bool() ? "true" : "false");
    case Kind::kInt: {
      const auto result = std::to_chars(buffer, buffer + sizeof buffer, value.as_int());
      DECISIOND_CHECK(result.ec == std::errc());  // 20 characters at most
      return copy_text(std::string_view(buffer, result.ptr - buffer), arena, offset);
    }
    case Kind::kUint: {
      const auto result = std::to_chars(buffer, buffer + sizeof buffer, value.as_uint());
      DECISIOND_CHECK(result.ec == std::errc());
      return copy_text(std::string_view(buffer, result.ptr - buffer), arena, offset);
    }
    case Kind::kDouble: {
      const size_t size = format_double_shortest_g(value.as_double(), buffer);
      DECISIOND_CHECK(size <= sizeof buffer);
      return copy_text(std::string_view(buffer, size), arena, offset);
    }
    case Kind::kBytes:
      if (!is_valid_utf8(value.as_text())) return Value::error(ErrorCode::kInvalidUtf8, offset);
      return Value::string(value.as_text());
    case Kind::kType: return Value::string(type_name(value.as_type()));
    default: return no_overload(offset);
  }
}

Value to_bool(const Value& value, uint32_t offset) {
  if (value.kind() == Kind::kBool) return value;
  if (value.kind() != Kind::kString) return no_overload(offset);
  const std::string_view text = value.as_text();
  if (text == "1" || text == "t" || text == "T" || text == "true" || text == "TRUE" ||
      text == "True") {
    return Value::boolean(true);
  }
  if (text == "0" || text == "f" || text == "F" || text == "false" || text == "FALSE" ||
      text == "False") {
    return Value::boolean(false);
  }
  return bad_conversion(offset);
}

Value to_bytes(const Value& value, uint32_t offset) {
  if (value.kind() == Kind::kBytes) return value;
  if (value.kind() == Kind::kString) return Value::bytes(value.as_text());
  return no_overload(offset);
}

size_t format_double_shortest_g(double d, char* out) {
  char* const start = out;
  if (std::isnan(d)) {
    std::memcpy(out, "NaN", 3);
    return 3;
  }
  if (std::isinf(d)) {
    std::memcpy(out, d > 0 ? "+Inf" : "-Inf", 4);
    return 4;
  }
  // Shortest round-trip digits, from the scientific form "d.ddde±x".
  char scientific[32];
  const auto result =
      std::to_chars(scientific, scientific + sizeof scientific, d, std::chars_format::scientific);
  DECISIOND_CHECK(result.ec == std::errc());
  const std::string_view text(scientific, result.ptr - scientific);
  size_t at = 0;
  if (text[at] == '-') {
    *out++ = '-';
    ++at;
  }
  char digits[24] = {};
  size_t digit_count = 0;
  for (; at < text.size() && text[at] != 'e'; ++at) {
    if (text[at] == '.') continue;
    DECISIOND_CHECK(digit_count < sizeof digits);  // a double's shortest form has 17 digits
    digits[digit_count++] = text[at];
  }
  // The exponent ends where to_chars stopped: the buffer has no terminating NUL, so a
  // C-string parse (atoi) would read on into whatever bytes follow.
  size_t exponent_at = at + 1;
  if (exponent_at < text.size() && text[exponent_at] == '+') ++exponent_at;
  int exponent = 0;
  std::from_chars(text.data() + exponent_at, text.data() + text.size(), exponent);
  // Go: %e when the exponent is < -4 or >= 6 (the precision it assumes for shortest).
  if (exponent < -4 || exponent >= 6) {
    *out++ = digits[0];
    if (digit_count > 1) {
      *out++ = '.';
      for (size_t i = 1; i < digit_count; ++i) *out++ = digits[i];
    }
    *out++ = 'e';
    *out++ = exponent < 0 ? '-' : '+';
    const int magnitude = exponent < 0 ? -exponent : exponent;
    if (magnitude < 10) *out++ = '0';
    out = std::to_chars(out, out + 4, magnitude).ptr;
    return static_cast<size_t>(out - start);
  }
  const int point = exponent + 1;  // digits before the decimal point
  if (point <= 0) {
    *out++ = '0';
    *out++ = '.';
    for (int i = 0; i < -point; ++i) *out++ = '0';
    for (size_t i = 0; i < digit_count; ++i) *out++ = digits[i];
  } else {
    for (int i = 0; i < point; ++i) {
      *out++ = static_cast<size_t>(i) < digit_count ? digits[i] : '0';
    }
    if (static_cast<size_t>(point) < digit_count) {
      *out++ = '.';
      for (size_t i = static_cast<size_t>(point); i < digit_count; ++i) *out++ = digits[i];
    }
  }
  return static_cast<size_t>(out - start);
}

}  // namespace cel
