#pragma once
// One HTTP/1.1 reply as it came over the wire, and a parser for the reply at the front of
// a byte buffer. Replies are framed by Content-Length only: decisiond puts it on every
// reply, so a reply without it is reported as invalid rather than read until close.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace integration {

struct HttpReply {
  std::string status_line;  // "HTTP/1.1 404 Not Found"
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // in wire order
  std::string body;
  std::string raw;  // the reply's exact bytes

  // The first header of that name (case-insensitive).
  std::optional<std::string> header(std::string_view name) const;
  size_t header_count(std::string_view name) const;
  bool closes_connection() const;
};

struct ParsedReply {
  enum class Outcome { kIncomplete, kComplete, kInvalid };
  Outcome outcome = Outcome::kIncomplete;
  size_t consumed = 0;  // bytes of the buffer the complete reply took
  HttpReply reply;
  std::string error;  // why it is invalid
};

// to_head: the reply answers a HEAD request, so it ends with its head whatever its
// Content-Length says (RFC 9110 9.3.2).
ParsedReply parse_reply(std::string_view bytes, bool to_head = false);

// "Sun, 06 Nov 1994 08:49:37 GMT" (RFC 9110 IMF-fixdate).
bool is_imf_fixdate(std::string_view text);

}  // namespace integration
