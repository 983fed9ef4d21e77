#include "tests/integration/raw_connection.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace integration {

RawConnection::RawConnection(uint16_t port, const char* host, int receive_buffer_bytes) : port_(port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  ::inet_pton(AF_INET, host, &address.sin_addr);
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    connect_errno_ = errno;
    return;
  }
  // A send into a server that stopped reading must fail the test, not hang it.
  const timeval send_timeout{5, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &send_timeout, sizeof(send_timeout));
  // Before connect, so the window advertised in the handshake is already small.
  if (receive_buffer_bytes > 0) {
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer_bytes, sizeof(receive_buffer_bytes));
  }
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    connect_errno_ = errno;
    ::close(fd);
    return;
  }
  fd_ = fd;
}

RawConnection::RawConnection(RawConnection&& other) noexcept
    : fd_(other.fd_),
      port_(other.port_),
      connect_errno_(other.connect_errno_),
      peer_closed_(other.peer_closed_),
      reset_(other.reset_),
      buffer_(std::move(other.buffer_)),
      last_error_(std::move(other.last_error_)),
      sent_requests_(std::move(other.sent_requests_)) {
  other.fd_ = -1;
}

RawConnection::~RawConnection() { close(); }

void RawConnection::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

void RawConnection::shutdown_write() {
  if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
}

bool RawConnection::send(std::string_view bytes) {
  sent_requests_.sent(bytes);
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      last_error_ = std::string("send: ") + std::strerror(errno);
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool RawConnection::send_byte_by_byte(std::string_view bytes) {
  const int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  for (char c : bytes) {
    if (!send(std::string_view(&c, 1))) return false;
    // Not a timing assertion: only gives each byte its own segment and receive.
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  return true;
}

bool RawConnection::receive_some(std::chrono::steady_clock::time_point deadline) {
  if (peer_closed_ || fd_ < 0) return false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return false;
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n > 0) {
      buffer_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    peer_closed_ = true;
    reset_ = n < 0 && errno == ECONNRESET;
    return false;
  }
}

std::optional<HttpReply> RawConnection::read_reply(std::chrono::milliseconds timeout) {
  return read_framed_reply(timeout, /*to_head=*/false);
}

std::optional<HttpReply> RawConnection::read_reply_to_head(std::chrono::milliseconds timeout) {
  return read_framed_reply(timeout, /*to_head=*/true);
}

std::optional<HttpReply> RawConnection::read_framed_reply(std::chrono::milliseconds timeout, bool to_head) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    ParsedReply parsed = parse_reply(buffer_, to_head);
    if (parsed.outcome == ParsedReply::Outcome::kComplete) {
      buffer_.erase(0, parsed.consumed);
      if (reply_log::enabled()) log_reply(parsed.reply);
      return std::move(parsed.reply);
    }
    if (parsed.outcome == ParsedReply::Outcome::kInvalid) {
      last_error_ = "not a valid reply: " + parsed.error;
      return std::nullopt;
    }
    if (!receive_some(deadline)) {
      last_error_ = peer_closed_ ? "closed before a whole reply; had: " + buffer_
                                 : "no whole reply in time; had: " + buffer_;
      return std::nullopt;
    }
  }
}

void RawConnection::log_reply(const HttpReply& reply) {
  // An interim reply (100 Continue) answers the request the final reply will answer too.
  const reply_log::LoggedRequest request =
      reply.status < 200 ? sent_requests_.peek() : sent_requests_.next(reply.closes_connection());
  reply_log::record(port_, request, {reply.status, &reply.headers, reply.body});
}

bool RawConnection::wait_for_close(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!peer_closed_) {
    if (!receive_some(deadline) && !peer_closed_) return false;
  }
  return true;
}

}  // namespace integration
