#include "tls/tls_sockets.h"

namespace tls {

TlsSockets::TlsSockets(runtime::SocketIo& lower, runtime::TimerWheel& timers, runtime::SpareBuffers& spares,
                       std::shared_ptr<const ServerContext> context, TlsSettings settings)
    : lower_(lower), timers_(timers), spares_(spares), context_(std::move(context)), settings_(std::move(settings)) {}

TlsSockets::~TlsSockets() = default;

std::optional<runtime::SocketId> TlsSockets::attach(int fd, runtime::SocketEvents& events) {
  if (free_.empty()) {
    sessions_.push_back(std::make_unique<TlsSession>(*this, static_cast<uint32_t>(sessions_.size())));
    free_.push_back(sessions_.back()->index());
  }
  TlsSession& session = *sessions_[free_.back()];
  if (!session.open(fd, context_, events)) return std::nullopt;
  free_.pop_back();
  return runtime::SocketId{session.index(), session.generation()};
}

TlsSession* TlsSockets::find(runtime::SocketId id) {
  if (id.slot >= sessions_.size()) return nullptr;
  TlsSession* session = sessions_[id.slot].get();
  return session->in_use() && session->generation() == id.generation ? session : nullptr;
}

void TlsSockets::send(runtime::SocketId id, const char* data, size_t length) {
  if (TlsSession* session = find(id)) session->send(data, length);
}

void TlsSockets::shutdown_write(runtime::SocketId id) {
  if (TlsSession* session = find(id)) session->shutdown_write();
}

void TlsSockets::close(runtime::SocketId id) {
  if (TlsSession* session = find(id)) session->close();
}

void TlsSockets::release(TlsSession& session) { free_.push_back(session.index()); }

}  // namespace tls
