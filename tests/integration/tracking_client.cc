#include "tests/integration/tracking_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "tests/integration/raw_connection.h"
#include "tests/integration/reply_log.h"

#include "caps/user_key.h"
#include "tests/integration/json_body.h"
#include "tracking/tokens/base64url.h"

namespace integration {

TrackingClient::TrackingClient(const ServerProcess& server) : port_(server.public_port()) {}

TrackingClient::~TrackingClient() { disconnect(); }

bool TrackingClient::connect() {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) {
    last_error_ = std::string("socket: ") + std::strerror(errno);
    return false;
  }
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port_);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    last_error_ = std::string("connect: ") + std::strerror(errno);
    disconnect();
    return false;
  }
  const int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  ++connections_opened_;
  buffer_.clear();
  return true;
}

void TrackingClient::disconnect() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  buffer_.clear();
}

std::optional<HttpReply> TrackingClient::get(std::string_view token, std::string_view extra_headers,
                                             std::string_view extra_query) {
  return request("GET", "/v1/tracking?t=" + std::string(token) + std::string(extra_query), extra_headers);
}

std::optional<HttpReply> TrackingClient::head(std::string_view token, std::string_view extra_headers,
                                              std::string_view extra_query) {
  return request("HEAD", "/v1/tracking?t=" + std::string(token) + std::string(extra_query), extra_headers);
}

std::optional<HttpReply> TrackingClient::request(std::string_view method, std::string_view target,
                                                 std::string_view extra_headers) {
  if (fd_ < 0 && !connect()) return std::nullopt;
  const std::string bytes = std::string(method) + " " + std::string(target) +
                            " HTTP/1.1\r\nHost: decisiond.test\r\n" + std::string(extra_headers) + "\r\n";
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) {
      last_error_ = "the server closed the connection before the request was sent";
      disconnect();
      return std::nullopt;
    }
    sent += static_cast<size_t>(n);
  }
  std::optional<HttpReply> reply = read_reply(method == "HEAD");
  if (!reply) {
    disconnect();
    return std::nullopt;
  }
  if (reply_log::enabled()) {
    reply_log::SentRequests request;
    request.sent(bytes);
    reply_log::record(port_, request.next(/*reply_closes=*/false), {reply->status, &reply->headers, reply->body});
  }
  if (reply->closes_connection()) disconnect();
  return reply;
}

std::optional<HttpReply> TrackingClient::read_reply(bool to_head) {
  const auto deadline = std::chrono::steady_clock::now() + kReplyTimeout;
  const auto receive = [&]() -> bool {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      last_error_ = "timed out waiting for the reply";
      return false;
    }
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) {
      last_error_ = "timed out waiting for the reply";
      return false;
    }
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
    if (n <= 0) {
      last_error_ = "the server closed the connection";
      return false;
    }
    buffer_.append(chunk, static_cast<size_t>(n));
    return true;
  };
  size_t head_end;
  while ((head_end = buffer_.find("\r\n\r\n")) == std::string::npos) {
    if (!receive()) return std::nullopt;
  }
  HttpReply reply;
  const std::string head = buffer_.substr(0, head_end);
  size_t line_end = head.find("\r\n");
  reply.status_line = head.substr(0, line_end);
  if (reply.status_line.size() < 12 || reply.status_line.rfind("HTTP/1.1 ", 0) != 0) {
    last_error_ = "bad status line: " + reply.status_line;
    return std::nullopt;
  }
  reply.status = std::atoi(reply.status_line.substr(9, 3).c_str());
  while (line_end != std::string::npos) {
    const size_t start = line_end + 2;
    line_end = head.find("\r\n", start);
    const std::string line = head.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
    const size_t colon = line.find(':');
    if (colon == std::string::npos || colon == 0) {
      last_error_ = "bad header line: " + line;
      return std::nullopt;
    }
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t") + 1);
    reply.headers.emplace_back(line.substr(0, colon), value);
  }
  size_t body_length = 0;
  const bool no_body = to_head || reply.status < 200 || reply.status == 204 || reply.status == 304;
  if (!no_body) {
    const std::optional<std::string> length = reply.header("Content-Length");
    if (!length) {
      last_error_ = "no Content-Length on a reply with a body: " + reply.status_line;
      return std::nullopt;
    }
    body_length = static_cast<size_t>(std::strtoull(length->c_str(), nullptr, 10));
  }
  const size_t total = head_end + 4 + body_length;
  while (buffer_.size() < total) {
    if (!receive()) return std::nullopt;
  }
  reply.body = buffer_.substr(head_end + 4, body_length);
  reply.raw = buffer_.substr(0, total);
  buffer_.erase(0, total);
  return reply;
}

namespace {
std::optional<simdjson::dom::element> first_error(const JsonBody& json) {
  if (!json.ok()) return std::nullopt;
  for (simdjson::dom::element e : array_member(json.root(), "errors")) return e;
  return std::nullopt;
}
}  // namespace

int error_code_of(std::string_view body) {
  JsonBody json(body);
  const auto e = first_error(json);
  return e ? static_cast<int>(int_member(*e, "code").value_or(-1)) : -1;
}

std::optional<std::string> error_detail_string(std::string_view body, std::string_view key) {
  JsonBody json(body);
  const auto e = first_error(json);
  if (!e) return std::nullopt;
  const auto details = member(*e, "details");
  if (!details) return std::nullopt;
  return string_member(*details, key);
}

std::vector<std::string> error_detail_strings(std::string_view body, std::string_view key) {
  std::vector<std::string> out;
  JsonBody json(body);
  const auto e = first_error(json);
  if (!e) return out;
  const auto details = member(*e, "details");
  if (!details) return out;
  for (simdjson::dom::element item : array_member(*details, key)) {
    if (item.is_string()) out.emplace_back(std::string_view(item.get_string()));
  }
  return out;
}

std::string token_bytes(std::string_view token) {
  std::string out;
  if (!tracking::base64url_decode(token, out)) return {};
  return out;
}

std::string token_text(std::string_view bytes) {
  std::string out;
  tracking::base64url_encode(bytes, out);
  return out;
}

std::string request_id_hex(const tracking::RequestId& id) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (uint8_t b : id) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 15]);
  }
  return out;
}

uint32_t owner_core_of(std::string_view user, uint32_t cores) { return caps::owner_core(caps::user_key(user), cores); }

std::vector<std::string> users_owned_by(std::string_view prefix, uint32_t core, uint32_t cores, size_t count) {
  std::vector<std::string> out;
  for (uint64_t n = 0; out.size() < count && n < 1'000'000; ++n) {
    std::string user = std::string(prefix) + std::to_string(n);
    if (owner_core_of(user, cores) == core) out.push_back(std::move(user));
  }
  return out;
}

}  // namespace integration
