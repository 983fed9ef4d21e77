#pragma once
// Which client a request speaks for (docs/client_address.md). The connection knows its
// transport's address: the TCP peer, or what a trusted balancer's PROXY header said (told by
// the layer below, runtime::SocketEvents::on_client_address). When that address is in
// --trusted-proxies, the request's Forwarded (RFC 7239) header, else its X-Forwarded-For,
// says who came before: the nearest address that is not trusted is the client. Otherwise
// the transport's address is.
//
// Per request from a trusted peer: a walk over the header values, no allocation; the last
// kMaxForwardedHops hops are read, older ones are not.
#include <cstddef>

#include "http/request.h"
#include "runtime/address_ranges.h"
#include "runtime/core_counter.h"
#include "runtime/ip_address.h"

namespace http {

// Hops of Forwarded / X-Forwarded-For read, nearest first; a chain longer than this whose
// read hops are all trusted gives no address (counted as too_many_hops).
inline constexpr size_t kMaxForwardedHops = 16;

// What a trusted peer's forwarding headers gave, per server, for /metrics. Single writer.
struct ClientAddressCounters {
  runtime::CoreCounter forwarded_address;          // Forwarded named the client
  runtime::CoreCounter forwarded_unusable;         // its nearest untrusted hop is no address
  runtime::CoreCounter forwarded_too_many_hops;    // every hop read was trusted, more were left
  runtime::CoreCounter x_forwarded_for_address;
  runtime::CoreCounter x_forwarded_for_unusable;
  runtime::CoreCounter x_forwarded_for_too_many_hops;
};

// The outcome of one walk over a forwarding header.
struct ForwardedClient {
  enum class Outcome : uint8_t {
    kNoHeader,     // the request has none of that name
    kAddress,      // address is the client
    kUnusable,     // the nearest untrusted hop is "unknown", obfuscated ("_hidden") or garbage:
                   // the client is not known
    kTooManyHops,  // the kMaxForwardedHops nearest hops are trusted and there are more
  };
  Outcome outcome = Outcome::kNoHeader;
  runtime::IpAddress address;
};

// Every Forwarded field of request, as one list in order; for= of each element.
ForwardedClient forwarded_client(const Request& request, const runtime::AddressRanges& trusted);
// Every X-Forwarded-For field, as one list in order.
ForwardedClient x_forwarded_for_client(const Request& request, const runtime::AddressRanges& trusted);

// The client's address for request on a connection whose transport address is transport
// (unknown when nothing told it): transport itself unless it is trusted; then Forwarded if
// the request has it, else X-Forwarded-For, else transport. Unknown when the header's
// nearest untrusted hop is no address. Counted.
runtime::IpAddress client_address_of(const Request& request, const runtime::IpAddress& transport,
                                     const runtime::AddressRanges* trusted, ClientAddressCounters& counters);

}  // namespace http
