#pragma once
// What a connection does with its socket, whatever carries its bytes: the reactor's own
// sockets (plain TCP through the ring, runtime/reactor.h), or a layer that transforms the
// bytes on their way (TLS, tls/tls_sockets.h) and calls the connection back with what it
// made of them. A connection sees the same calls and callbacks either way.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "runtime/ip_address.h"

namespace runtime {

// Identifies a socket slot and its generation, so a late completion for a reused slot is
// recognised and dropped.
struct SocketId {
  uint32_t slot = 0;
  uint32_t generation = 0;
  friend bool operator==(SocketId, SocketId) = default;
};

// Callbacks of one attached socket, all on the reactor's thread.
class SocketEvents {
 public:
  virtual ~SocketEvents() = default;
  // Bytes are valid only during the call.
  virtual void on_receive(std::string_view bytes) = 0;
  // End of the receive side: 0 for an orderly EOF, -errno otherwise. No more on_receive.
  virtual void on_peer_closed(int error) = 0;
  // The one outstanding send finished: bytes sent, or -errno.
  virtual void on_send_complete(int result) = 0;
  // Closed, and no operation on it is left in the ring: the owner may reuse its memory.
  virtual void on_released() = 0;
  // Who is at the other end, from a layer that learns it (proxy_protocol/: the TCP peer, or
  // the client a trusted balancer's PROXY header names), at most once and before the first
  // on_receive. Layers in between pass it up; a connection that does not care ignores it.
  virtual void on_client_address(const IpAddress& address) {}
};

class SocketIo {
 public:
  virtual ~SocketIo() = default;
  // Starts receiving on fd for events. nullopt when no socket can be taken; fd is closed then.
  virtual std::optional<SocketId> attach(int fd, SocketEvents& events) = 0;
  // One send at a time per socket; data must stay valid until on_send_complete.
  virtual void send(SocketId id, const char* data, size_t length) = 0;
  // Sends the end of the stream after queued data; receiving goes on (a lingering close).
  virtual void shutdown_write(SocketId id) = 0;
  // Stops receiving and closes; on_released follows once nothing is in flight.
  virtual void close(SocketId id) = 0;
  // Closes a descriptor that was never attached.
  virtual void close_fd(int fd) = 0;
};

}  // namespace runtime
