#include "runtime/log/logfmt.h"

#include <cstring>

namespace runtime::log {

namespace {

bool is_continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The length of the UTF-8 sequence at text[at], or 0 when it is not one (overlong forms,
// surrogates and code points past U+10FFFF are not).
size_t utf8_sequence_length(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  const size_t left = text.size() - at;
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return left >= 2 && is_continuation(byte(1)) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    if (left < 3 || !is_continuation(byte(1)) || !is_continuation(byte(2))) return 0;
    if (lead == 0xE0 && byte(1) < 0xA0) return 0;  // overlong
    if (lead == 0xED && byte(1) > 0x9F) return 0;  // surrogate
    return 3;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    if (left < 4 || !is_continuation(byte(1)) || !is_continuation(byte(2)) || !is_continuation(byte(3))) return 0;
    if (lead == 0xF0 && byte(1) < 0x90) return 0;  // overlong
    if (lead == 0xF4 && byte(1) > 0x8F) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

bool is_bare(std::string_view value) {
  if (value.empty()) return false;
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7F || c == '=' || c == '"' || c == '\\') return false;
  }
  return true;
}

void append_escaped_byte(LineText& out, unsigned char c) {
  switch (c) {
    case '"': out.append("\\\""); return;
    case '\\': out.append("\\\\"); return;
    case '\n': out.append("\\n"); return;
    case '\r': out.append("\\r"); return;
    case '\t': out.append("\\t"); return;
    default: break;
  }
  if (c < 0x20 || c == 0x7F) {
    static constexpr char kHex[] = "0123456789abcdef";
    const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
    out.append({escaped, sizeof escaped});
    return;
  }
  out.push_back(static_cast<char>(c));
}

void append_number(LineText& out, uint64_t value) {
  char digits[20];
  size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) out.push_back(digits[--n]);
}

// Days since 1970-01-01 to a civil date (the proleptic Gregorian calendar), without
// gmtime_r: no time zone lock on the way to a failed check's last line.
void civil_from_days(int64_t days, int64_t& year, unsigned& month, unsigned& day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto day_of_era = static_cast<unsigned>(days - era * 146097);
  const unsigned year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const unsigned day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const unsigned shifted_month = (5 * day_of_year + 2) / 153;
  day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
  month = shifted_month < 10 ? shifted_month + 3 : shifted_month - 9;
  year = static_cast<int64_t>(year_of_era) + era * 400 + (month <= 2 ? 1 : 0);
}

void put_digits(char* at, uint64_t value, int width) {
  for (int i = width - 1; i >= 0; --i) {
    at[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
}

}  // namespace

void LineText::append(std::string_view text) {
  const size_t room = capacity_ - size_;
  const size_t taken = text.size() <= room ? text.size() : room;
  std::memcpy(data_ + size_, text.data(), taken);
  size_ += taken;
  if (taken < text.size()) cut_ = true;
}

void LineText::push_back(char c) {
  if (size_ == capacity_) {
    cut_ = true;
    return;
  }
  data_[size_++] = c;
}

void LineText::end_line() {
  if (size_ == capacity_ && capacity_ > 0) {
    data_[capacity_ - 1] = '\n';
    cut_ = true;
    return;
  }
  push_back('\n');
}

void format_timestamp(int64_t wall_ms, char (&out)[kTimestampBytes]) {
  if (wall_ms < 0) wall_ms = 0;
  const int64_t seconds = wall_ms / 1000;
  int64_t year = 0;
  unsigned month = 0, day = 0;
  civil_from_days(seconds / 86400, year, month, day);
  const int64_t of_day = seconds % 86400;
  std::memcpy(out, "0000-00-00T00:00:00.000Z", kTimestampBytes);
  put_digits(out, static_cast<uint64_t>(year % 10000), 4);
  put_digits(out + 5, month, 2);
  put_digits(out + 8, day, 2);
  put_digits(out + 11, static_cast<uint64_t>(of_day / 3600), 2);
  put_digits(out + 14, static_cast<uint64_t>(of_day / 60 % 60), 2);
  put_digits(out + 17, static_cast<uint64_t>(of_day % 60), 2);
  put_digits(out + 20, static_cast<uint64_t>(wall_ms % 1000), 3);
}

void append_value(LineText& out, std::string_view value) {
  if (is_bare(value)) {
    out.append(value);
    return;
  }
  out.push_back('"');
  for (size_t at = 0; at < value.size();) {
    const size_t length = utf8_sequence_length(value, at);
    if (length == 0) {
      out.append("\\ufffd");
      ++at;
    } else if (length == 1) {
      append_escaped_byte(out, static_cast<unsigned char>(value[at]));
      ++at;
    } else {
      out.append(value.substr(at, length));
      at += length;
    }
  }
  out.push_back('"');
}

void append_line(LineText& out, const LineHead& head, std::span<const LineField> fields, std::string_view message) {
  char ts[kTimestampBytes];
  format_timestamp(head.wall_ms, ts);
  out.append("ts=");
  out.append({ts, kTimestampBytes});
  out.append(" level=");
  out.append(level_name(head.level));
  out.append(" component=");
  append_value(out, head.component);
  if (head.core >= 0) {
    out.append(" core=");
    append_number(out, static_cast<uint64_t>(head.core));
  }
  for (const LineField& field : fields) {
    out.push_back(' ');
    out.append(field.key);
    out.push_back('=');
    append_number(out, field.value);
  }
  out.append(" msg=");
  append_value(out, message);
  out.end_line();
}

}  // namespace runtime::log
