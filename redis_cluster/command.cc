#include "redis_cluster/command.h"

#include <charconv>

namespace redis_cluster {

namespace {
// "*<count>\r\n" or "$<length>\r\n".
void append_header(std::string& out, char type, size_t count) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), count);
  out += type;
  out.append(digits, static_cast<size_t>(end - digits));
  out.append("\r\n", 2);
}

size_t decimal_digits(size_t n) {
  size_t digits = 1;
  while (n >= 10) {
    n /= 10;
    ++digits;
  }
  return digits;
}
}  // namespace

void FormattedCommand::assign(std::span<const std::string_view> args) {
  bytes_.clear();
  if (args.empty()) return;
  // Measured first: one reservation at most, none once the buffer has held as much.
  size_t length = 3 + decimal_digits(args.size());
  for (const std::string_view arg : args) length += 5 + decimal_digits(arg.size()) + arg.size();
  bytes_.reserve(length);
  append_header(bytes_, '*', args.size());
  for (const std::string_view arg : args) {
    append_header(bytes_, '$', arg.size());
    bytes_.append(arg);
    bytes_.append("\r\n", 2);
  }
}

}  // namespace redis_cluster
