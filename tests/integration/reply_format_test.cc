// Rules every reply follows, whatever its status: a Date and a Content-Length that frames
// the body exactly, and `Connection: close` on exactly the replies after which the
// server ends the connection.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/requests.h"
#include "tests/integration/server_process.h"

namespace integration {
namespace {

enum class Listener { kPublic, kAdmin };

struct Exchange {
  std::string name;
  Listener listener;
  std::string request;
  int status;
  bool ends_connection;
};

std::vector<Exchange> exchanges() {
  return {
      {"healthz", Listener::kAdmin, get_request("/healthz"), 200, false},
      {"metrics", Listener::kAdmin, get_request("/metrics"), 200, false},
      {"decision_invalid_request", Listener::kPublic, post_request("/v1/decision", "{}"), 422, false},
      {"unknown_path", Listener::kPublic, get_request("/nope"), 404, false},
      {"wrong_method", Listener::kPublic, get_request("/v1/decision"), 405, false},
      {"client_asks_close", Listener::kPublic, get_request("/v1/vast", "Connection: close\r\n"), 403, true},
      {"http_1_0", Listener::kAdmin, "GET /healthz HTTP/1.0\r\n\r\n", 200, true},
      {"malformed", Listener::kPublic, "NOT HTTP AT ALL\r\n\r\n", 400, true},
      {"headers_too_large", Listener::kPublic, get_request("/v1/vast", "X-Big: " + std::string(17 * 1024, 'a') + "\r\n"),
       431, true},
      {"body_too_large", Listener::kPublic,
       "POST /v1/decision HTTP/1.1\r\nHost: t\r\nContent-Length: 1000000\r\n\r\n", 413, true},
  };
}

// Sends the exchange's request on a fresh connection and returns its reply; afterwards
// the connection is either closed by the server with nothing after the reply, or still
// serves a next request (which proves Content-Length framed the first reply exactly).
void run_exchange(const ServerProcess& server, const Exchange& exchange, HttpReply& reply, bool& connection_ended) {
  RawConnection connection(exchange.listener == Listener::kPublic ? server.public_port() : server.admin_port());
  ASSERT_TRUE(connection.connected());
  ASSERT_TRUE(connection.send(exchange.request));
  std::optional<HttpReply> first = connection.read_reply();
  ASSERT_TRUE(first) << connection.last_error();
  reply = *first;
  EXPECT_EQ(reply.status, exchange.status);

  // The server may end the connection only after the reply; a next request tells which.
  if (exchange.ends_connection) {
    connection_ended = connection.wait_for_close();
    EXPECT_EQ(connection.unread(), "") << "bytes after a reply that ends the connection";
    return;
  }
  ASSERT_TRUE(connection.send(get_request("/nope")));
  const std::optional<HttpReply> next = connection.read_reply();
  connection_ended = !next;
  if (next) {
    EXPECT_EQ(next->status, 404) << "the bytes after the first reply are not the next reply";
  }
}

TEST(ReplyFormat, EveryReplyHasDateAndContentLength) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  for (const Exchange& exchange : exchanges()) {
    SCOPED_TRACE(exchange.name);
    HttpReply reply;
    bool ended = false;
    run_exchange(server, exchange, reply, ended);
    EXPECT_TRUE(HasDateAndContentLength(reply));
  }
}

TEST(ReplyFormat, ConnectionCloseIsSentExactlyWhenTheConnectionEnds) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  for (const Exchange& exchange : exchanges()) {
    SCOPED_TRACE(exchange.name);
    HttpReply reply;
    bool ended = false;
    run_exchange(server, exchange, reply, ended);
    EXPECT_EQ(ended, exchange.ends_connection);
    EXPECT_EQ(reply.closes_connection(), exchange.ends_connection) << reply.raw.substr(0, 300);
  }
}

}  // namespace
}  // namespace integration
