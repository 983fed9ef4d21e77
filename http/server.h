#pragma once
// One core's HTTP server on one listener: accepts, keeps a pool of connections, and
// drains on shutdown. Handlers run synchronously on the core and write into one reused
// Response.
#include <functional>
#include <memory>
#include <vector>

#include "http/client_address.h"
#include "http/content_coding/content_coding_metrics.h"
#include "http/content_coding/reply_compressor.h"
#include "http/content_coding/request_body_decoder.h"
#include "http/http_date.h"
#include "http/limits.h"
#include "http/request_observer.h"
#include "http/response.h"
#include "http/router.h"
#include "http/server_metrics.h"
#include "runtime/after_lines_written.h"
#include "runtime/reactor.h"

namespace http {

class Connection;

class Server final : public runtime::Acceptor {
 public:
  // Extra connections that may be held while being refused (503) beyond the limit.
  static constexpr uint32_t kRefusalSlots = 64;

  // Plain HTTP on the reactor's own sockets.
  Server(runtime::Reactor& reactor, const Router& router, const HttpLimits& limits);
  // Over sockets: another transport that hands the connections plaintext (TLS).
  Server(runtime::Reactor& reactor, runtime::SocketIo& sockets, const Router& router, const HttpLimits& limits);
  ~Server() override;

  void on_accept(int fd) override;

  // Stops reading new requests; on_drained runs once every connection has closed.
  void begin_drain(std::function<void()> on_drained);
  // Closes every connection now (drain deadline).
  void close_all();
  bool draining() const { return draining_; }
  uint32_t open_connections() const { return in_use_; }

  ServerMetrics& metrics() { return metrics_; }
  const ServerMetrics& metrics() const { return metrics_; }
  // What trusted peers' Forwarded / X-Forwarded-For gave (http/client_address.h).
  ClientAddressCounters& client_addresses() { return client_addresses_; }
  // Replies compressed and request bodies decoded (http/content_coding/).
  const content_coding::ContentCodingMetrics& content_codings() const { return content_codings_; }

  // A sample of requests (fraction 0..1) is handed to observer when it completes; null:
  // none. Before serving.
  void observe(RequestObserver* observer, double fraction) {
    observer_ = observer;
    sampler_ = RequestSampler(observer != nullptr ? fraction : 0);
  }
  // Whether the request being answered is one of the sample: one branch without observer.
  bool sample() { return observer_ != nullptr && sampler_.take(); }
  RequestObserver* observer() { return observer_; }

  // Replies leave only once the lines their requests appended on this core are written
  // (docs/events.md "Writing"); null: at once. Before serving; outlives the server.
  void set_reply_gate(runtime::AfterLinesWritten* gate) { reply_gate_ = gate; }
  runtime::AfterLinesWritten* reply_gate() { return reply_gate_; }

  // For connections.
  runtime::Reactor& reactor() { return reactor_; }
  runtime::SocketIo& sockets() { return sockets_; }
  const Router& router() const { return router_; }
  const HttpLimits& limits() const { return limits_; }
  Response& response() { return response_; }
  content_coding::ReplyCompressor& reply_compressor() { return reply_compressor_; }
  content_coding::RequestBodyDecoder& body_decoder() { return body_decoder_; }
  std::string_view date() { return date_.at(reactor_.clock().wall_s()); }
  void release(Connection& connection);

 private:
  Connection* take_connection();

  runtime::Reactor& reactor_;
  runtime::SocketIo& sockets_;
  const Router& router_;
  const HttpLimits limits_;
  ServerMetrics metrics_;
  content_coding::ContentCodingMetrics content_codings_;  // before the two that count in it
  content_coding::ReplyCompressor reply_compressor_;
  content_coding::RequestBodyDecoder body_decoder_;
  ClientAddressCounters client_addresses_;
  HttpDate date_;
  Response response_;
  RequestObserver* observer_ = nullptr;
  runtime::AfterLinesWritten* reply_gate_ = nullptr;
  RequestSampler sampler_;
  std::vector<std::unique_ptr<Connection>> connections_;
  std::vector<Connection*> free_;
  uint32_t in_use_ = 0;
  bool draining_ = false;
  std::function<void()> on_drained_;
};

}  // namespace http
