#pragma once
// TLS as a transport (docs/tls.md): runtime::SocketIo over the reactor's sockets, each
// connection a TlsSession that turns records into the plaintext the HTTP connection above
// reads and writes. http/ sees the same calls and callbacks as over plain TCP and does not
// know which carries its bytes.
//
// Per core, single-threaded; sessions are pooled and reused, their ids carry a generation
// so a call for a session since reused is ignored.
#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/clock.h"
#include "runtime/timer_wheel.h"
#include "runtime/socket_io.h"
#include "runtime/spare_buffers.h"
#include "tls/server_context.h"
#include "tls/tls_counters.h"
#include "tls/tls_session.h"

namespace tls {

struct TlsSettings {
  // A handshake not finished within this long is closed and counted.
  int64_t handshake_timeout_ms = 10'000;
  // Made for, and sent whole to, a client that speaks plain HTTP to the TLS port, before
  // closing (the service's 400 10007: http/ builds it, this layer only carries it).
  std::function<std::string()> plain_http_reply;
  // Whether the core is too far behind to begin a handshake now (overload shedding on the
  // waiting time, as decisions; the service sheds handshakes first): a ClientHello that
  // waited past it is closed unanswered and counted, since a full handshake costs a core
  // more than a decision does. Empty: never shed.
  std::function<bool()> overloaded;
  // Reads the time around each handshake step, counted in TlsCounters::handshake_ns (what
  // the service's handshake shedding budgets). Null: not counted.
  const runtime::Clock* clock = nullptr;
};

class TlsSockets final : public runtime::SocketIo {
 public:
  // lower: the TCP sockets the records travel on (the core's reactor); timers: for the
  // handshakes' deadlines; spares: the core's buffers, borrowed for records while a session
  // has some to send.
  TlsSockets(runtime::SocketIo& lower, runtime::TimerWheel& timers, runtime::SpareBuffers& spares,
             std::shared_ptr<const ServerContext> context, TlsSettings settings);
  ~TlsSockets() override;

  std::optional<runtime::SocketId> attach(int fd, runtime::SocketEvents& events) override;
  void send(runtime::SocketId id, const char* data, size_t length) override;
  void shutdown_write(runtime::SocketId id) override;
  void close(runtime::SocketId id) override;
  void close_fd(int fd) override { lower_.close_fd(fd); }

  const TlsCounters& counters() const { return counters_; }
  // New handshakes use context from now on; open connections keep the one they began with
  // (each holds its own reference, freed here when the last of them closes).
  void set_context(std::shared_ptr<const ServerContext> context) { context_ = std::move(context); }

  // For sessions.
  runtime::SocketIo& lower() { return lower_; }
  runtime::TimerWheel& timers() { return timers_; }
  runtime::SpareBuffers& spares() { return spares_; }
  const TlsSettings& settings() const { return settings_; }
  TlsCounters& counters() { return counters_; }
  // Where a session's plaintext is read to, valid during the connection's on_receive.
  std::array<char, 16384>& plaintext() { return plaintext_; }
  void release(TlsSession& session);

 private:
  TlsSession* find(runtime::SocketId id);

  runtime::SocketIo& lower_;
  runtime::TimerWheel& timers_;
  runtime::SpareBuffers& spares_;
  std::shared_ptr<const ServerContext> context_;
  const TlsSettings settings_;
  TlsCounters counters_;
  std::vector<std::unique_ptr<TlsSession>> sessions_;
  std::vector<uint32_t> free_;
  std::array<char, 16384> plaintext_{};
};

}  // namespace tls
