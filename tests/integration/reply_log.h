#pragma once
// Every reply the integration clients read, logged for the OpenAPI check
// (tests/openapi/validate_replies.mjs validates each against docs/openapi*.yaml).
//
// Off unless DECISIOND_REPLY_LOG_DIR is set (ctest sets it for the integration tests):
// then each test process appends one JSON line per complete reply to
// <dir>/replies-<pid>.jsonl, and one line per test it starts, so the check knows which
// tests ran. Logging never fails a test: a line that cannot be written is lost.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace integration::reply_log {

bool enabled();

// Which listener a port is: ServerProcess notes both once a server says where it serves.
// tls_port: the TLS listener, serving the public routes (0: none).
void note_listeners(uint16_t public_port, uint16_t admin_port, uint16_t tls_port = 0);
// A balancer's port in front of a public listener (HAProxy in the client-address tests).
void note_balancer_port(uint16_t port);

// The request a reply answers, as far as the client knows it.
struct LoggedRequest {
  bool parsed = false;  // false: bytes the client could not read as a request head
  std::string method;
  std::string target;  // path with query, as sent
  std::vector<std::pair<std::string, std::string>> headers;  // the ones the API reads
};

struct LoggedReply {
  int status = 0;
  const std::vector<std::pair<std::string, std::string>>* headers = nullptr;
  std::string_view body;
};

void record(uint16_t port, const LoggedRequest& request, const LoggedReply& reply);

// Whether a request header is one the API reads (version headers, Content-Type,
// Accept-Language, Authorization, Origin): only those are logged; Authorization's value
// is not.
bool is_logged_request_header(std::string_view name);

// Reads requests back from the bytes a raw connection sent, so that each reply read there
// is logged with the request it answers (pipelined requests answer in order).
class SentRequests {
 public:
  void sent(std::string_view bytes);
  // The request the next reply answers; after a reply that closes the connection,
  // nothing sent later is answered.
  LoggedRequest next(bool reply_closes);
  // The same without taking it: for an interim reply (100 Continue).
  LoggedRequest peek() const;

 private:
  bool skip_body(std::string_view head);

  std::string pending_;
  uint64_t body_left_ = 0;  // bytes of the last head's body not sent yet
  bool unreadable_ = false;  // framing the client could not follow: stop reading requests
  bool began_ = false;       // the connection's first bytes were seen
};

}  // namespace integration::reply_log
