#pragma once
// An IP address as a value: what a connection's peer, a PROXY protocol header or a
// Forwarded element names (docs/client_address.md). 17 bytes and no text, so it is copied
// into every request without an allocation. An IPv4-mapped IPv6 address (::ffff:a.b.c.d, what
// a dual-stack listener reports for an IPv4 client) is kept as the IPv4 address it maps:
// one client, one form, whatever socket it came in on.
#include <netinet/in.h>
#include <sys/socket.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace runtime {

struct IpAddress {
  enum class Family : uint8_t { kNone, kV4, kV6 };
  // Longest text form (an IPv6 address with an embedded dotted quad), without a NUL.
  static constexpr size_t kMaxTextBytes = 45;

  Family family = Family::kNone;
  std::array<uint8_t, 16> bytes{};  // network order; 4 used for kV4, 16 for kV6

  bool known() const { return family != Family::kNone; }
  std::span<const uint8_t> octets() const {
    return {bytes.data(), family == Family::kV4 ? 4u : family == Family::kV6 ? 16u : 0u};
  }
  bool is_loopback() const;

  static IpAddress v4(const uint8_t (&octets)[4]);
  // 16 bytes in network order; an IPv4-mapped address becomes kV4.
  static IpAddress v6(const uint8_t* octets16);
  // A socket address (AF_INET or AF_INET6); kNone for anything else.
  static IpAddress from_sockaddr(const sockaddr_storage& storage);
  // An IPv4 dotted quad or an IPv6 literal, nothing around it (no brackets, port or zone).
  static std::optional<IpAddress> parse(std::string_view text);

  friend bool operator==(const IpAddress&, const IpAddress&) = default;
};

// The text form (inet_ntop's), written into out; empty for kNone.
std::string_view format_ip(const IpAddress& address, std::array<char, IpAddress::kMaxTextBytes + 1>& out);

// The address of a connected socket's peer (one getpeername); kNone when it fails.
IpAddress peer_ip(int fd);

}  // namespace runtime
