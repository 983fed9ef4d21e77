#include "service/tls/tls_edge.h"

#include "http/error_body.h"
#include "http/error_codes.h"
#include "http/reply_writer.h"
#include "http/response.h"

namespace service {

namespace {

// 400 10007 for plain HTTP sent to the HTTPS port, as nginx answers the same mistake.
std::string plain_http_reply(std::string_view date) {
  http::Response response;
  response.set_json(400);
  http::append_error_with_reason(response.body(), http::error_code::kMalformedRequest, "malformed HTTP request",
                                 "plain HTTP sent to the HTTPS port");
  std::string out;
  http::append_reply(out, response, date, /*close_connection=*/true);
  return out;
}

}  // namespace

std::unique_ptr<TlsEdge> TlsEdge::make(runtime::Reactor& reactor, const ServiceConfig& config,
                                       const http::Router& public_router, std::unique_ptr<tls::ServerContext> context) {
  if (context == nullptr) return nullptr;
  return std::unique_ptr<TlsEdge>(new TlsEdge(reactor, config, public_router, std::move(context)));
}

TlsEdge::TlsEdge(runtime::Reactor& reactor, const ServiceConfig& config, const http::Router& public_router,
                 std::unique_ptr<tls::ServerContext> context)
    : reactor_(reactor), context_(std::move(context)), handshake_shedding_(config.public_limits.shed_lag_ns) {
  const auto reply = [this] { return plain_http_reply(date_.at(reactor_.clock().wall_s())); };
  if (config.tls.on()) {
    // A PROXY header comes before the ClientHello: read beneath TLS.
    proxy_ = std::make_unique<proxy_protocol::ProxySockets>(reactor, config.public_limits.trusted_proxies);
    // Handshakes are shed on the waiting time, as decisions are (http/limits.h), and first
    // (handshake_shedding.h).
    const auto overloaded = [this] {
      return handshake_shedding_.shed(reactor_.clock().monotonic_ns(), reactor_.waiting_since_ns(),
                                      public_->counters().handshake_ns.get());
    };
    public_ = std::make_unique<tls::TlsSockets>(
        *proxy_, reactor.timers(), reactor.spare_buffers(), context_,
        tls::TlsSettings{config.public_limits.request_timeout_ms, reply, overloaded, &reactor.clock()});
    server_ = std::make_unique<http::Server>(reactor, *public_, public_router, config.public_limits);
  }
  if (config.tls.admin_tls) {
    admin_ = std::make_unique<tls::TlsSockets>(reactor, reactor.timers(), reactor.spare_buffers(), context_,
                                               tls::TlsSettings{config.admin_limits.request_timeout_ms, reply, {}, nullptr});  // never shed
  }
}

void TlsEdge::adopt(std::unique_ptr<tls::ServerContext> context) {
  context_ = std::move(context);
  if (public_) public_->set_context(context_);
  if (admin_) admin_->set_context(context_);
}

}  // namespace service
