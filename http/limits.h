#pragma once
// Every bound of the HTTP layer, by name (docs/operations.md "Limits"). Hitting one is counted.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "http/content_coding/coding.h"
#include "runtime/address_ranges.h"

namespace http {

struct HttpLimits {
  // Counted as the request target, plus each header line's name and value and 4 bytes for
  // ": " and CRLF; chunked trailers count too. More is 431.
  size_t max_header_bytes = 16 * 1024;
  size_t max_headers = 100;                // header lines; more is 431
  size_t max_body_bytes = 64 * 1024;       // decoded body; more is 413
  int64_t request_timeout_ms = 10'000;     // first byte of a request to its last
  int64_t idle_timeout_ms = 60'000;        // keep-alive wait between requests
  int64_t linger_timeout_ms = 2'000;       // reading after a final reply before close
  uint32_t max_connections = 10'000;       // per core; more get 503 and are closed
  size_t max_output_backlog_bytes = 256 * 1024;   // replies queued but not sent: stop reading
  size_t max_input_backlog_bytes = 256 * 1024;    // pipelined bytes held while stopped
  // Look up each accepted connection's peer (one getpeername per connection, not per
  // request), so handlers can tell loopback peers (Request::peer_loopback). For listeners
  // whose routes care, such as an admin plane.
  bool note_peers = false;
  // --compress: the codings replies of kMinCompressedReplyBytes or more may use for a client
  // whose Accept-Encoding allows one (http/content_coding/). None: replies go as they are.
  // Request bodies are decoded whatever this says, bounded by max_body_bytes.
  content_coding::CodingSet reply_codings;
  // --trusted-proxies (docs/client_address.md): a request from a peer in these ranges is the
  // client its Forwarded / X-Forwarded-For header names (http/client_address.h). Null: none.
  std::shared_ptr<const runtime::AddressRanges> trusted_proxies;
  // Overload: a request whose route may be shed is answered 503 10098 with Retry-After at
  // once, without running its handler, when it has waited longer than this: since its bytes
  // reached the socket, by the kernel's receive time (runtime Reactor::waiting_since_ns),
  // so the wait in the kernel's own backlog counts as well as the wait behind the current
  // turn. Routes shed late are shed at kShedLateFactor times as long. 0: never shed.
  int64_t shed_lag_ns = 0;
};

inline constexpr int64_t kShedLateFactor = 4;

}  // namespace http
