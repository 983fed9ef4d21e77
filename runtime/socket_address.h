#pragma once
// host:port as given on the command line: an IPv4 literal, [IPv6] literal, or localhost.
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace runtime {

struct SocketAddress {
  sockaddr_storage storage{};
  socklen_t length = 0;

  uint16_t port() const;
  bool is_loopback() const;
  std::string to_string() const;
  static absl::StatusOr<SocketAddress> parse(std::string_view text);
};

// A non-blocking TCP listening socket with SO_REUSEPORT, so every core binds its own.
absl::StatusOr<int> open_listener(const SocketAddress& address, int backlog = 4096);
// Whether a port is free for a new set of listeners: a bind without SO_REUSEPORT fails
// while any process listens there, even one that set SO_REUSEPORT itself, whose port a
// second server would otherwise silently share (and take part of its traffic).
absl::Status check_port_unclaimed(const SocketAddress& address);
// The address a socket is bound to (resolves port 0).
absl::StatusOr<SocketAddress> bound_address(int fd);
// The address of a connected socket's peer.
absl::StatusOr<SocketAddress> peer_address(int fd);

}  // namespace runtime
