#pragma once
// One core's TLS (docs/tls.md): its own OpenSSL contexts (one per core, no SSL_CTX shared
// between threads), and what is served with them: the HTTPS listener (--tls-listen), an
// HTTP server over TLS on the core's ring (tls/) with the public routes exactly as the
// plain listener serves them; and the TLS transport the admin plane's server is built on
// (--admin-tls).
#include <memory>

#include "http/http_date.h"
#include "http/router.h"
#include "http/server.h"
#include "proxy_protocol/proxy_sockets.h"
#include "runtime/reactor.h"
#include "service/flags.h"
#include "service/tls/handshake_shedding.h"
#include "tls/server_context.h"
#include "tls/tls_sockets.h"

namespace service {

class TlsEdge {
 public:
  // context: this core's own (loaded by main before the cores start); null: neither
  // --tls-listen nor --admin-tls, and so no edge.
  static std::unique_ptr<TlsEdge> make(runtime::Reactor& reactor, const ServiceConfig& config,
                                       const http::Router& public_router, std::unique_ptr<tls::ServerContext> context);

  // The HTTPS listener's server; null without --tls-listen.
  http::Server* server() { return server_.get(); }
  const tls::TlsCounters* counters() const { return public_ ? &public_->counters() : nullptr; }
  // The HTTPS listener's PROXY headers, read below TLS; null without --tls-listen.
  const proxy_protocol::ProxyCounters* proxy_counters() const { return proxy_ ? &proxy_->counters() : nullptr; }
  // What the admin plane's server is built on; null without --admin-tls.
  tls::TlsSockets* admin_sockets() { return admin_.get(); }
  // Certificates reloaded (SIGHUP): new handshakes get these, open connections keep theirs.
  void adopt(std::unique_ptr<tls::ServerContext> context);

 private:
  TlsEdge(runtime::Reactor& reactor, const ServiceConfig& config, const http::Router& public_router,
          std::unique_ptr<tls::ServerContext> context);

  runtime::Reactor& reactor_;
  http::HttpDate date_;  // of the plain-HTTP answer
  std::shared_ptr<const tls::ServerContext> context_;
  HandshakeShedding handshake_shedding_;  // public_'s
  std::unique_ptr<proxy_protocol::ProxySockets> proxy_;  // beneath public_
  std::unique_ptr<tls::TlsSockets> public_;
  std::unique_ptr<http::Server> server_;
  std::unique_ptr<tls::TlsSockets> admin_;
};

}  // namespace service
