#pragma once
// --trusted-proxies (docs/client_address.md, docs/flags.md): the balancers whose PROXY
// protocol header or Forwarded / X-Forwarded-For tell the client's address.
#include "absl/status/status.h"
#include "http/limits.h"

namespace service {

// Reads --trusted-proxies into limits.trusted_proxies (the public listeners'); the error is
// one line naming the flag and the item.
absl::Status resolve_client_address_flags(http::HttpLimits& limits);

}  // namespace service
