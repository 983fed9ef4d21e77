#include "decision/request/ip_address.h"

#include <arpa/inet.h>

#include <cstring>

namespace decision::request {

bool parse_ip_address(std::string_view text, IpAddress& out) {
  if (text.empty() || text.size() > kMaxIpLiteralBytes) return false;
  // inet_pton wants a NUL-terminated string; an embedded NUL would cut the text short.
  if (text.find('\0') != std::string_view::npos) return false;
  char literal[kMaxIpLiteralBytes + 1];
  std::memcpy(literal, text.data(), text.size());
  literal[text.size()] = '\0';
  // glibc's inet_pton takes only the strict forms: four decimal parts without leading zeros
  // for IPv4 (no "1.2.3", no hex or octal), RFC 4291 text for IPv6.
  std::array<uint8_t, 16> bytes{};
  if (text.find(':') == std::string_view::npos) {
    if (inet_pton(AF_INET, literal, bytes.data()) != 1) return false;
    out.family = IpAddress::Family::kV4;
  } else {
    if (inet_pton(AF_INET6, literal, bytes.data()) != 1) return false;
    out.family = IpAddress::Family::kV6;
  }
  out.bytes = bytes;
  out.text = text;
  return true;
}

}  // namespace decision::request
