#include "decision/request/json_number.h"

namespace decision::request {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Beyond any exponent that can matter for an int64 (19 digits) given at most 64 KiB of
// digits; clamping keeps the arithmetic in range.
constexpr int64_t kExponentClamp = 1'000'000;

}  // namespace

std::string_view trim_token(std::string_view raw) {
  while (!raw.empty() && is_json_space(raw.back())) raw.remove_suffix(1);
  return raw;
}

bool is_json_number(std::string_view t) {
  size_t i = 0;
  const size_t n = t.size();
  if (i < n && t[i] == '-') ++i;
  if (i == n) return false;
  if (t[i] == '0') {
    ++i;
  } else if (is_digit(t[i])) {
    while (i < n && is_digit(t[i])) ++i;
  } else {
    return false;
  }
  if (i < n && t[i] == '.') {
    ++i;
    if (i == n || !is_digit(t[i])) return false;
    while (i < n && is_digit(t[i])) ++i;
  }
  if (i < n && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < n && (t[i] == '+' || t[i] == '-')) ++i;
    if (i == n || !is_digit(t[i])) return false;
    while (i < n && is_digit(t[i])) ++i;
  }
  return i == n;
}

std::optional<int64_t> integral_value(std::string_view t) {
  if (!is_json_number(t)) return std::nullopt;
  size_t i = 0;
  const bool negative = t[0] == '-';
  if (negative) ++i;
  // Significant digits: integer and fraction parts; `scale` is the power of ten that
  // multiplies them.
  const size_t int_begin = i;
  while (i < t.size() && is_digit(t[i])) ++i;
  const std::string_view int_part = t.substr(int_begin, i - int_begin);
  std::string_view frac_part;
  if (i < t.size() && t[i] == '.') {
    const size_t frac_begin = ++i;
    while (i < t.size() && is_digit(t[i])) ++i;
    frac_part = t.substr(frac_begin, i - frac_begin);
  }
  int64_t exponent = 0;
  if (i < t.size()) {  // 'e' or 'E'
    ++i;
    bool exponent_negative = false;
    if (t[i] == '+' || t[i] == '-') exponent_negative = t[i++] == '-';
    for (; i < t.size(); ++i) {
      if (exponent < kExponentClamp) exponent = exponent * 10 + (t[i] - '0');
    }
    if (exponent_negative) exponent = -exponent;
  }
  // Trailing zeros of the fraction do not matter; any other fraction digit must be undone
  // by the exponent.
  while (!frac_part.empty() && frac_part.back() == '0') frac_part.remove_suffix(1);
  int64_t scale = exponent - static_cast<int64_t>(frac_part.size());
  // Strip trailing zeros of all significant digits into the scale, leading zeros away.
  std::string_view head = int_part;
  std::string_view tail = frac_part;
  while (!head.empty() && head.front() == '0') head.remove_prefix(1);
  if (head.empty()) {
    while (!tail.empty() && tail.front() == '0') tail.remove_prefix(1);
  }
  if (head.empty() && tail.empty()) return 0;  // zero, however written
  if (tail.empty()) {
    while (!head.empty() && head.back() == '0') {
      head.remove_suffix(1);
      ++scale;
    }
  }
  if (scale < 0) return std::nullopt;  // a nonzero digit stays right of the point
  const size_t digit_count = head.size() + tail.size();
  if (digit_count + static_cast<size_t>(scale < 20 ? scale : 20) > 19) return std::nullopt;
  uint64_t value = 0;
  for (char c : head) value = value * 10 + static_cast<uint64_t>(c - '0');
  for (char c : tail) value = value * 10 + static_cast<uint64_t>(c - '0');
  for (int64_t k = 0; k < scale; ++k) value *= 10;
  // At most 19 digits: below 10^19, so the int64 range check below is all that is left.
  if (value > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  const auto signed_value = static_cast<int64_t>(value);
  return negative ? -signed_value : signed_value;
}

std::optional<uint64_t> digits_value(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : digits) {
    if (!is_digit(c)) return std::nullopt;
    const auto d = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - d) / 10) return std::nullopt;
    value = value * 10 + d;
  }
  return value;
}

}  // namespace decision::request
