#pragma once
// A client TCP connection driven byte by byte, for what libcurl will not do: pipelining,
// split writes, garbage, half requests, and watching when the server closes.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tests/integration/http_reply.h"
#include "tests/integration/reply_log.h"

namespace integration {

// Long enough for a loaded 2-core machine; only reached when something is wrong.
inline constexpr std::chrono::milliseconds kReplyTimeout{5000};

class RawConnection {
 public:
  // Connects (blocking) to host:port; check connected() or connect_errno().
  // receive_buffer_bytes > 0 shrinks SO_RCVBUF, so a client that does not read pushes
  // back on the server after a few KiB instead of after megabytes of kernel buffer.
  explicit RawConnection(uint16_t port, const char* host = "127.0.0.1", int receive_buffer_bytes = 0);
  RawConnection(RawConnection&& other) noexcept;
  RawConnection& operator=(RawConnection&&) = delete;
  RawConnection(const RawConnection&) = delete;
  ~RawConnection();

  bool connected() const { return fd_ >= 0; }
  int connect_errno() const { return connect_errno_; }

  // False if the peer is gone before every byte was written.
  bool send(std::string_view bytes);
  // One send() per byte with TCP_NODELAY and a short pause, so the server really sees
  // the request arrive in pieces.
  bool send_byte_by_byte(std::string_view bytes);

  // The next whole reply; nullopt on timeout, close, or bytes that are not a reply
  // (last_error() says which).
  std::optional<HttpReply> read_reply(std::chrono::milliseconds timeout = kReplyTimeout);
  // The same for the reply to a HEAD request, which ends with its head.
  std::optional<HttpReply> read_reply_to_head(std::chrono::milliseconds timeout = kReplyTimeout);
  // Reads until the server closes. True when it did within the timeout; the bytes that
  // came before the close stay in unread().
  bool wait_for_close(std::chrono::milliseconds timeout = kReplyTimeout);
  // Whether the close was a reset rather than an orderly FIN.
  bool was_reset() const { return reset_; }

  std::string_view unread() const { return buffer_; }
  const std::string& last_error() const { return last_error_; }
  // Half-closes: the server sees EOF but may still answer.
  void shutdown_write();
  // Closes our side now.
  void close();

 private:
  std::optional<HttpReply> read_framed_reply(std::chrono::milliseconds timeout, bool to_head);
  void log_reply(const HttpReply& reply);
  // Appends what arrives before the deadline; false on timeout or when the peer closed.
  bool receive_some(std::chrono::steady_clock::time_point deadline);

  int fd_ = -1;
  uint16_t port_ = 0;
  int connect_errno_ = 0;
  bool peer_closed_ = false;
  bool reset_ = false;
  std::string buffer_;
  std::string last_error_;
  reply_log::SentRequests sent_requests_;  // what each reply answers, for the reply log
};

}  // namespace integration
