#pragma once
// The client's address at the bottom of a public listener (docs/client_address.md):
// runtime::SocketIo over the reactor's sockets, beneath TLS and HTTP. Each accepted
// connection's peer is looked up once (getpeername) and told to the layer above
// (SocketEvents::on_client_address) before its first bytes. A PROXY protocol v2 header
// (proxy_header.h) is read off the connection's first bytes when the peer is in
// --trusted-proxies, and the address it carries is told instead; from any other peer a
// header closes the connection, as does a malformed one. Counted by reason.
//
// Only the opening is looked at: once a connection's first bytes are settled, every call
// goes straight to the sockets below, with their own ids (this layer hands those up).
// Per core, single-threaded; the per-connection state is pooled.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "proxy_protocol/proxy_counters.h"
#include "proxy_protocol/proxy_header.h"
#include "runtime/address_ranges.h"
#include "runtime/socket_io.h"

namespace proxy_protocol {

class ProxySockets final : public runtime::SocketIo {
 public:
  // lower: the TCP sockets (the core's reactor); trusted: --trusted-proxies (null: none).
  ProxySockets(runtime::SocketIo& lower, std::shared_ptr<const runtime::AddressRanges> trusted);
  ~ProxySockets() override;

  std::optional<runtime::SocketId> attach(int fd, runtime::SocketEvents& events) override;
  void send(runtime::SocketId id, const char* data, size_t length) override { lower_.send(id, data, length); }
  void shutdown_write(runtime::SocketId id) override { lower_.shutdown_write(id); }
  void close(runtime::SocketId id) override { lower_.close(id); }
  void close_fd(int fd) override { lower_.close_fd(fd); }

  const ProxyCounters& counters() const { return counters_; }

 private:
  // One connection's opening: between the socket below and the layer above, for its life.
  class ConnectionStart final : public runtime::SocketEvents {
   public:
    ConnectionStart(ProxySockets& owner, uint32_t index) : owner_(owner), index_(index) {}
    void begin(runtime::SocketEvents& upper, const runtime::IpAddress& peer, bool trusted);

    void on_receive(std::string_view bytes) override;
    void on_peer_closed(int error) override;
    void on_send_complete(int result) override { upper_->on_send_complete(result); }
    void on_released() override;

   private:
    enum class Phase : uint8_t { kOpening, kPassing, kRefused };
    // Whether first settles the opening; false: wait for more bytes.
    bool settle(std::string_view first);
    void pass(const runtime::IpAddress& client, std::string_view rest);
    void refuse(runtime::CoreCounter& reason);

    ProxySockets& owner_;
    const uint32_t index_;
    runtime::SocketEvents* upper_ = nullptr;
    runtime::IpAddress peer_;
    bool trusted_ = false;
    Phase phase_ = Phase::kOpening;
    // The opening's bytes while they arrive in pieces (rare: a header comes in one segment),
    // at most kMaxHeaderBytes.
    std::string held_;
  };

  void release(uint32_t index) { free_.push_back(index); }

  runtime::SocketIo& lower_;
  const std::shared_ptr<const runtime::AddressRanges> trusted_;
  ProxyCounters counters_;
  std::vector<std::unique_ptr<ConnectionStart>> starts_;
  std::vector<uint32_t> free_;
};

}  // namespace proxy_protocol
