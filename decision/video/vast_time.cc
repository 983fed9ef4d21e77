#include "decision/video/vast_time.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace decision::video {
namespace {

void append_two_digits(std::string& out, uint64_t value) {
  out.push_back(static_cast<char>('0' + value / 10 % 10));
  out.push_back(static_cast<char>('0' + value % 10));
}

void append_clock(std::string& out, uint64_t seconds) {
  append_two_digits(out, seconds / 3600);
  out.push_back(':');
  append_two_digits(out, seconds / 60 % 60);
  out.push_back(':');
  append_two_digits(out, seconds % 60);
}

}  // namespace

void append_vast_duration(std::string& out, double seconds) {
  constexpr int64_t kLastMillisecondOfDay = 24 * 3600 * 1000 - 1;
  int64_t ms = std::llround(seconds * 1000);
  if (ms < 0) ms = 0;
  if (ms > kLastMillisecondOfDay) ms = kLastMillisecondOfDay;
  append_clock(out, static_cast<uint64_t>(ms / 1000));
  out.push_back('.');
  const uint64_t fraction = static_cast<uint64_t>(ms % 1000);
  out.push_back(static_cast<char>('0' + fraction / 100));
  append_two_digits(out, fraction);
}

void append_skip_offset(std::string& out, const catalog::SkipOffset& offset) {
  if (offset.kind == catalog::SkipOffset::Kind::kPercent) {
    char digits[12];
    out.append(digits, std::to_chars(digits, digits + sizeof(digits), offset.percent).ptr);
    out.push_back('%');
    return;
  }
  append_clock(out, offset.seconds);
}

}  // namespace decision::video
