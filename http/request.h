#pragma once
// A parsed request. Views point into the parser's storage and live until the next feed.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "runtime/ip_address.h"

namespace http {

enum class Method : uint8_t { kOther, kGet, kHead, kPost, kPut, kDelete, kOptions, kPatch };

std::string_view method_name(Method method);

struct Header {
  std::string_view name;
  std::string_view value;
};

struct Request {
  static constexpr size_t kMaxHeaders = 128;

  Method method = Method::kOther;
  std::string_view method_text;
  std::string_view target;  // as sent
  std::string_view path;    // target before '?'
  std::string_view query;   // after '?', without it
  uint8_t version_major = 1;
  uint8_t version_minor = 1;
  bool keep_alive = true;
  Header headers[kMaxHeaders];
  size_t header_count = 0;
  std::string_view body;
  // Set when the body is held in a string of its own (a large body of known length): a
  // handler that keeps the body past its call may move it out rather than copy it (a copy
  // of hundreds of MB holds the core's thread for tens of milliseconds). After a move,
  // body must not be read.
  std::string* owned_body = nullptr;
  // Whether the peer is on a loopback address; known only on servers that note peers
  // (HttpLimits::note_peers), false elsewhere.
  bool peer_loopback = false;
  // The client this request speaks for (http/client_address.h, docs/client_address.md): the
  // connection's peer, what a trusted balancer's PROXY header or Forwarded / X-Forwarded-For
  // said; unknown when nothing told it (a test's request) or the forwarding header hid it.
  runtime::IpAddress client_address;

  // Case-insensitive; the first occurrence, or empty.
  std::string_view header(std::string_view name) const;
  bool has_header(std::string_view name) const;
  // Like header(), but tells an absent header (nullopt) from an empty one.
  std::optional<std::string_view> find_header(std::string_view name) const;
  // Whether the header appears more than once: for a header whose value is a single item,
  // two fields mean two values (RFC 9110 section 5.3), and picking one would be a guess.
  bool has_repeated_header(std::string_view name) const;
};

}  // namespace http
