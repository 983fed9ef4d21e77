#pragma once
// What one core's TLS listener did with its connections (docs/tls.md), for /metrics.
// Single writer (the core), read by scrapes.
#include "runtime/core_counter.h"

namespace tls {

struct TlsCounters {
  runtime::CoreCounter handshakes_tls12;      // completed, TLS 1.2
  runtime::CoreCounter handshakes_tls13;      // completed, TLS 1.3
  runtime::CoreCounter handshakes_failed;     // refused by OpenSSL: protocol, suites, a bad record
  runtime::CoreCounter handshakes_timed_out;  // not finished within the handshake timeout
  runtime::CoreCounter handshakes_cut;        // the client closed before finishing
  runtime::CoreCounter handshakes_shed;       // a ClientHello that waited past the overload bound: closed
  runtime::CoreCounter handshake_ns;          // time spent in OpenSSL's handshake steps (overload shedding)
  runtime::CoreCounter plain_http;            // plain HTTP sent to the TLS port: 400, closed
  runtime::CoreCounter not_tls;               // bytes that are neither: closed
  runtime::CoreCounter record_errors;         // a bad record after the handshake: closed
};

}  // namespace tls
