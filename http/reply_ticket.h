#pragma once
// A reply that a handler gives later: it took the request, asked another core, and will
// answer when that core has answered it. The ticket names the connection and its
// generation, so an answer that arrives after the client has gone (the connection closed
// and perhaps reused for another client) is recognised and dropped.
//
// While a connection waits for its ticket it reads no further request: pipelined bytes are
// held, so replies leave in request order and the parsed request stays where the handler
// saw it. Tickets live on the core that issued them; only that core may complete them.
#include <cstdint>

namespace http {

class Connection;
class Response;

class ReplyTicket {
 public:
  ReplyTicket() = default;

  // Sends reply (status, headers, body, close) in the request's place. False when the
  // connection has closed or moved on since: nothing is sent then.
  bool complete(const Response& reply) const;

 private:
  friend class Connection;
  ReplyTicket(Connection* connection, uint32_t generation) : connection_(connection), generation_(generation) {}

  Connection* connection_ = nullptr;
  uint32_t generation_ = 0;
};

}  // namespace http
