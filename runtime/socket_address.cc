#include "runtime/socket_address.h"

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "runtime/absl_view.h"

namespace runtime {

uint16_t SocketAddress::port() const {
  if (storage.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_port);
  }
  return ntohs(reinterpret_cast<const sockaddr_in*>(&storage)->sin_port);
}

bool SocketAddress::is_loopback() const {
  if (storage.ss_family == AF_INET6) {
    const in6_addr& a = reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(&a);
  }
  const uint32_t a = ntohl(reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr.s_addr);
  return (a >> 24) == 127;
}

std::string SocketAddress::to_string() const {
  char text[INET6_ADDRSTRLEN] = {};
  if (storage.ss_family == AF_INET6) {
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&storage)->sin6_addr, text,
              sizeof(text));
    return absl::StrCat("[", text, "]:", port());
  }
  inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&storage)->sin_addr, text,
            sizeof(text));
  return absl::StrCat(text, ":", port());
}

absl::StatusOr<SocketAddress> SocketAddress::parse(std::string_view text) {
  const auto bad = [&](std::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("'", av(text), "' is not host:port (", av(why), ")"));
  };
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("no port");
  std::string host(text.substr(0, colon));
  const std::string_view port_text = text.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() ||
      port > 65535) {
    return bad("port must be 0 to 65535");
  }
  SocketAddress address;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    auto* in6 = reinterpret_cast<sockaddr_in6*>(&address.storage);
    in6->sin6_family = AF_INET6;
    in6->sin6_port = htons(static_cast<uint16_t>(port));
    if (inet_pton(AF_INET6, host.substr(1, host.size() - 2).c_str(), &in6->sin6_addr) != 1) {
      return bad("bad IPv6 address");
    }
    address.length = sizeof(sockaddr_in6);
    return address;
  }
  if (host == "localhost") host = "127.0.0.1";
  if (host.empty() || host == "*") host = "0.0.0.0";
  auto* in4 = reinterpret_cast<sockaddr_in*>(&address.storage);
  in4->sin_family = AF_INET;
  in4->sin_port = htons(static_cast<uint16_t>(port));
  if (inet_pton(AF_INET, host.c_str(), &in4->sin_addr) != 1) return bad("bad IPv4 address");
  address.length = sizeof(sockaddr_in);
  return address;
}

absl::StatusOr<int> open_listener(const SocketAddress& address, int backlog) {
  const int fd = ::socket(address.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::ErrnoToStatus(errno, "socket");
  const int one = 1;
  // TCP_NODELAY on the listener is inherited by accepted sockets: no per-connection call.
  if (::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) != 0 ||
      ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) != 0 ||
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) != 0) {
    const int e = errno;
    ::close(fd);
    return absl::ErrnoToStatus(e, "setsockopt");
  }
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address.storage), address.length) != 0) {
    const int e = errno;
    ::close(fd);
    return absl::ErrnoToStatus(e, absl::StrCat("bind ", address.to_string()));
  }
  if (::listen(fd, backlog) != 0) {
    const int e = errno;
    ::close(fd);
    return absl::ErrnoToStatus(e, "listen");
  }
  return fd;
}

absl::Status check_port_unclaimed(const SocketAddress& address) {
  const int fd = ::socket(address.storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::ErrnoToStatus(errno, "socket");
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));  // connections in TIME_WAIT are no claim
  const int rc = ::bind(fd, reinterpret_cast<const sockaddr*>(&address.storage), address.length);
  const int e = errno;
  ::close(fd);
  if (rc == 0) return absl::OkStatus();
  return absl::ErrnoToStatus(e, absl::StrCat("bind ", address.to_string(),
                                              e == EADDRINUSE ? " (another process listens there)" : ""));
}

absl::StatusOr<SocketAddress> bound_address(int fd) {
  SocketAddress address;
  address.length = sizeof(address.storage);
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address.storage), &address.length) != 0) {
    return absl::ErrnoToStatus(errno, "getsockname");
  }
  return address;
}

absl::StatusOr<SocketAddress> peer_address(int fd) {
  SocketAddress address;
  address.length = sizeof(address.storage);
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&address.storage), &address.length) != 0) {
    return absl::ErrnoToStatus(errno, "getpeername");
  }
  return address;
}

}  // namespace runtime
