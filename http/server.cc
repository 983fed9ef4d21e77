#include "http/server.h"

#include "http/connection.h"
#include "runtime/check.h"
#include "runtime/socket_address.h"

namespace http {

Server::Server(runtime::Reactor& reactor, const Router& router, const HttpLimits& limits)
    : Server(reactor, reactor, router, limits) {}

Server::Server(runtime::Reactor& reactor, runtime::SocketIo& sockets, const Router& router, const HttpLimits& limits)
    : reactor_(reactor), sockets_(sockets), router_(router), limits_(limits), metrics_(router.route_names()),
      reply_compressor_(limits.reply_codings, content_codings_), body_decoder_(content_codings_) {}

Server::~Server() = default;

Connection* Server::take_connection() {
  if (free_.empty()) {
    connections_.push_back(std::make_unique<Connection>(*this));
    return connections_.back().get();
  }
  Connection* c = free_.back();
  free_.pop_back();
  DECISIOND_CHECK_MSG(!c->in_use(), "connection in the free pool still in use");
  return c;
}

void Server::on_accept(int fd) {
  metrics_.connections_accepted.add();
  const bool over_limit = in_use_ >= limits_.max_connections || draining_;
  if (in_use_ >= limits_.max_connections + kRefusalSlots) {
    // Not even room to say no: drop it.
    metrics_.connections_refused.add();
    sockets_.close_fd(fd);
    return;
  }
  Connection* connection = take_connection();
  const std::optional<runtime::SocketId> socket = sockets_.attach(fd, *connection);
  if (!socket) {
    metrics_.connections_refused.add();
    free_.push_back(connection);
    return;
  }
  ++in_use_;
  metrics_.connections_open.set(in_use_);
  if (limits_.note_peers) {
    const absl::StatusOr<runtime::SocketAddress> peer = runtime::peer_address(fd);
    connection->set_peer_loopback(peer.ok() && peer->is_loopback());
    if (peer.ok()) connection->set_transport_address(runtime::IpAddress::from_sockaddr(peer->storage));
  }
  if (over_limit) {
    metrics_.connections_refused.add();
    connection->refuse(*socket);
  } else {
    connection->open(*socket);
  }
}

void Server::release(Connection& connection) {
  // A connection released twice would sit twice in free_ and be handed to two clients.
  DECISIOND_CHECK_MSG(in_use_ > 0 && free_.size() < connections_.size(), "connection released twice");
  free_.push_back(&connection);
  --in_use_;
  metrics_.connections_open.set(in_use_);
  if (draining_ && in_use_ == 0 && on_drained_) {
    auto done = std::move(on_drained_);
    on_drained_ = nullptr;
    done();
  }
}

void Server::begin_drain(std::function<void()> on_drained) {
  draining_ = true;
  on_drained_ = std::move(on_drained);
  for (auto& c : connections_) {
    if (c->in_use()) c->drain();
  }
  if (in_use_ == 0 && on_drained_) {
    auto done = std::move(on_drained_);
    on_drained_ = nullptr;
    done();
  }
}

void Server::close_all() {
  for (auto& c : connections_) {
    if (c->in_use()) c->close_now();
  }
}

}  // namespace http
