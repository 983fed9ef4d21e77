#pragma once
// What one core's listener did with PROXY protocol headers (docs/client_address.md), for
// /metrics. Single writer (the core), read by scrapes.
#include "runtime/core_counter.h"

namespace proxy_protocol {

struct ProxyCounters {
  runtime::CoreCounter headers_proxy;  // PROXY read: the client is the header's source
  runtime::CoreCounter headers_local;  // LOCAL read (a balancer's own check): the peer stands
  // Closed for what they sent, by reason.
  runtime::CoreCounter refused_untrusted;       // a header from a peer not in --trusted-proxies
  runtime::CoreCounter refused_version;         // version 1, or a version nibble other than 2
  runtime::CoreCounter refused_command;         // neither LOCAL nor PROXY
  runtime::CoreCounter refused_family;          // unknown address family or transport
  runtime::CoreCounter refused_address_length;  // shorter than its addresses
  runtime::CoreCounter refused_oversized;       // longer than kMaxHeaderBytes
  runtime::CoreCounter refused_tlv;             // a TLV past the header's end
  runtime::CoreCounter cut;                     // the peer closed in the middle of a header
};

}  // namespace proxy_protocol
