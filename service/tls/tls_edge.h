#pragma once
// One core's HTTPS listener (docs/tls.md): its own OpenSSL contexts (one per core, no
// SSL_CTX shared between threads), TLS over the core's ring (tls/), and an HTTP server on
// it with the public routes, exactly as the plain listener serves them.
#include <memory>

#include "absl/status/statusor.h"
#include "http/router.h"
#include "http/server.h"
#include "runtime/reactor.h"
#include "service/flags.h"
#include "tls/server_context.h"
#include "tls/tls_sockets.h"

namespace service {

class TlsEdge {
 public:
  // context: this core's own (loaded by main before the cores start); null: no TLS
  // listener, and so no edge.
  static std::unique_ptr<TlsEdge> make(runtime::Reactor& reactor, const ServiceConfig& config,
                                       const http::Router& public_router, std::unique_ptr<tls::ServerContext> context);

  http::Server& server() { return server_; }
  const tls::TlsCounters& counters() const { return sockets_.counters(); }

 private:
  TlsEdge(runtime::Reactor& reactor, const ServiceConfig& config, const http::Router& public_router,
          std::unique_ptr<tls::ServerContext> context);

  std::unique_ptr<tls::ServerContext> context_;
  tls::TlsSockets sockets_;
  http::Server server_;
};

}  // namespace service
