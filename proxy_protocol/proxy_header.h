#pragma once
// The PROXY protocol header, version 2 (docs/client_address.md): the binary block an L4
// balancer (HAProxy's send-proxy-v2, AWS NLB, Envoy) sends before anything else on a
// connection, naming the client it accepted. Bytes in, an address out; nothing of TLS or
// HTTP. Version 1 (a text line beginning "PROXY ") is recognised only to be refused.
//
// Layout (16 fixed bytes, then `length` more):
//   12  signature   \r\n\r\n\0\r\nQUIT\n
//    1  version and command: 0x2 in the high nibble; LOCAL 0x0 or PROXY 0x1 in the low one
//    1  family and transport: UNSPEC 0x0, INET 0x1, INET6 0x2, UNIX 0x3 high; UNSPEC 0x0,
//       STREAM 0x1, DGRAM 0x2 low
//    2  length of what follows, network order
//   then source and destination addresses (INET 12 bytes, INET6 36, UNIX 216), ports
//   included, then TLVs (type 1 byte, length 2 bytes, value), which are checked for framing
//   and otherwise ignored.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runtime/ip_address.h"

namespace proxy_protocol {

inline constexpr std::string_view kV2Signature{"\r\n\r\n\0\r\nQUIT\n", 12};
inline constexpr std::string_view kV1Signature{"PROXY "};
inline constexpr size_t kFixedBytes = 16;
// A whole header, TLVs included, may be at most this long; a longer announced length is
// refused without waiting for it. Addresses take at most 216 bytes (UNIX); what HAProxy,
// NLB and Envoy add as TLVs (ALPN, authority, unique id, TLS facts, a VPC endpoint id) fits
// with room to spare.
inline constexpr size_t kMaxHeaderBytes = 1024;

// What the first bytes of a connection are.
enum class Opening : uint8_t {
  kNotProxy,  // anything else: TLS, HTTP, garbage; handed on untouched
  kPartial,   // a strict prefix of a signature: wait for more
  kV2,        // the version 2 signature, whole
  kV1,        // "PROXY ": version 1
};
Opening classify(std::string_view first);

enum class HeaderFault : uint8_t {
  kNone,
  kVersion,        // the version nibble is not 2
  kCommand,        // neither LOCAL nor PROXY
  kFamily,         // an unknown address family or transport
  kAddressLength,  // shorter than the family's addresses
  kOversized,      // longer than kMaxHeaderBytes
  kTlv,            // a TLV running past the header's end
};

enum class Command : uint8_t { kLocal, kProxy };

struct HeaderRead {
  enum class Outcome : uint8_t { kNeedMore, kComplete, kMalformed };
  Outcome outcome = Outcome::kNeedMore;
  // kComplete: the header's length (where the client's bytes begin). kNeedMore: how many
  // bytes the header needs in all, as far as known (at least kFixedBytes).
  size_t bytes = 0;
  Command command = Command::kLocal;
  // The client a PROXY command names, for INET and INET6; unknown for LOCAL (a balancer's
  // own health check), UNSPEC and UNIX: the connection's own peer stands then.
  runtime::IpAddress source;
  HeaderFault fault = HeaderFault::kNone;
};

// Reads a version 2 header from bytes, which begin with kV2Signature (classify said kV2).
// Every byte seen is checked as soon as it arrives, so a prefix of a valid header is always
// kNeedMore and a fault is reported from the first byte that shows it.
HeaderRead read_v2(std::string_view bytes);

}  // namespace proxy_protocol
