#pragma once
// Calling tracking URLs the way the tracking tests need to (docs/tracking.md): GET and
// HEAD over one kept-alive raw connection (so hundreds of refused tokens cost one connect),
// the error envelope checked member by member, token bytes for tampering, and which core owns
// a user (docs/caps.md, "Who owns what"), so a test can pick users of either core.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/integration/http_reply.h"
#include "tests/integration/reply_checks.h"
#include "tests/integration/server_process.h"
#include "tracking/tokens/tracking_event.h"

namespace integration {

// One kept-alive connection to the public listener; a new one is opened only after the
// server closed the previous one (a reply with Connection: close). Replies are framed as
// RFC 9112 section 6.3 says: no body for HEAD, 1xx, 204 and 304 (a 204 carries no
// Content-Length, RFC 9110 section 8.6), else Content-Length.
class TrackingClient {
 public:
  explicit TrackingClient(const ServerProcess& server);
  ~TrackingClient();
  TrackingClient(const TrackingClient&) = delete;
  TrackingClient& operator=(const TrackingClient&) = delete;

  // GET /v1/tracking?t=<token><extra_query>; extra_headers are whole lines ending in \r\n.
  std::optional<HttpReply> get(std::string_view token, std::string_view extra_headers = "",
                               std::string_view extra_query = "");
  // The same request as HEAD.
  std::optional<HttpReply> head(std::string_view token, std::string_view extra_headers = "",
                                std::string_view extra_query = "");
  // Any method and request target ("/v1/tracking?..."), for queries a token cannot spell.
  std::optional<HttpReply> request(std::string_view method, std::string_view target, std::string_view extra_headers = "");

  // Why the last call returned nullopt.
  const std::string& last_error() const { return last_error_; }
  // How many connections were opened so far.
  int connections_opened() const { return connections_opened_; }

 private:
  bool connect();
  void disconnect();
  // Reads one reply; nullopt (last_error_ set) on timeout, close or bytes that are no reply.
  std::optional<HttpReply> read_reply(bool to_head);

  uint16_t port_;
  int fd_ = -1;
  std::string buffer_;
  std::string last_error_;
  int connections_opened_ = 0;
};

// The first error's code, or -1 when the body is not an error envelope.
int error_code_of(std::string_view body);
// A string member of the first error's details, or nullopt.
std::optional<std::string> error_detail_string(std::string_view body, std::string_view key);
// A string array member of the first error's details (empty when absent or not one).
std::vector<std::string> error_detail_strings(std::string_view body, std::string_view key);

// A token's bytes (base64url without padding, decoded) and back; empty when it does not decode.
std::string token_bytes(std::string_view token);
std::string token_text(std::string_view bytes);
// A sealed request id as the event log writes it: 32 lowercase hex digits.
std::string request_id_hex(const tracking::RequestId& id);
// The base64url alphabet, in value order.
inline constexpr std::string_view kBase64UrlAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// The core that owns user (caps::owner_core of caps::user_key) among `cores`.
uint32_t owner_core_of(std::string_view user, uint32_t cores);
// count user ids "<prefix><n>" owned by core among cores, in increasing n.
std::vector<std::string> users_owned_by(std::string_view prefix, uint32_t core, uint32_t cores, size_t count);

}  // namespace integration
