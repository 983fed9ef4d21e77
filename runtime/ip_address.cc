#include "runtime/ip_address.h"

#include <arpa/inet.h>

#include <cstring>

#include "runtime/socket_address.h"

namespace runtime {

namespace {
constexpr uint8_t kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
}  // namespace

IpAddress IpAddress::v4(const uint8_t (&octets)[4]) {
  IpAddress a;
  a.family = Family::kV4;
  std::memcpy(a.bytes.data(), octets, 4);
  return a;
}

IpAddress IpAddress::v6(const uint8_t* octets16) {
  IpAddress a;
  if (std::memcmp(octets16, kMappedPrefix, sizeof(kMappedPrefix)) == 0) {
    a.family = Family::kV4;
    std::memcpy(a.bytes.data(), octets16 + 12, 4);
    return a;
  }
  a.family = Family::kV6;
  std::memcpy(a.bytes.data(), octets16, 16);
  return a;
}

IpAddress IpAddress::from_sockaddr(const sockaddr_storage& storage) {
  if (storage.ss_family == AF_INET) {
    IpAddress a;
    a.family = Family::kV4;
    std::memcpy(a.bytes.data(), &reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr, 4);
    return a;
  }
  if (storage.ss_family == AF_INET6) {
    return v6(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr.s6_addr);
  }
  return {};
}

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
  if (text.empty() || text.size() > kMaxTextBytes || text.find('\0') != std::string_view::npos) return std::nullopt;
  char literal[kMaxTextBytes + 1];
  std::memcpy(literal, text.data(), text.size());
  literal[text.size()] = '\0';
  uint8_t octets[16] = {};
  if (text.find(':') == std::string_view::npos) {
    // glibc's inet_pton takes only four decimal parts: no "1.2.3", no hex or octal.
    if (inet_pton(AF_INET, literal, octets) != 1) return std::nullopt;
    IpAddress a;
    a.family = Family::kV4;
    std::memcpy(a.bytes.data(), octets, 4);
    return a;
  }
  if (inet_pton(AF_INET6, literal, octets) != 1) return std::nullopt;
  return v6(octets);
}

bool IpAddress::is_loopback() const {
  if (family == Family::kV4) return bytes[0] == 127;
  if (family != Family::kV6) return false;
  for (size_t i = 0; i < 15; ++i) {
    if (bytes[i] != 0) return false;
  }
  return bytes[15] == 1;
}

std::string_view format_ip(const IpAddress& address, std::array<char, IpAddress::kMaxTextBytes + 1>& out) {
  if (!address.known()) return {};
  const int af = address.family == IpAddress::Family::kV4 ? AF_INET : AF_INET6;
  if (inet_ntop(af, address.bytes.data(), out.data(), static_cast<socklen_t>(out.size())) == nullptr) return {};
  return {out.data(), std::strlen(out.data())};
}

IpAddress peer_ip(int fd) {
  const absl::StatusOr<SocketAddress> peer = peer_address(fd);
  return peer.ok() ? IpAddress::from_sockaddr(peer->storage) : IpAddress{};
}

}  // namespace runtime
