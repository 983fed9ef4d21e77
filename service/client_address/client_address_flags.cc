#include "service/client_address/client_address_flags.h"

#include <memory>
#include <string>

#include "absl/flags/flag.h"
#include "runtime/address_ranges.h"
#include "service/flag_error.h"

ABSL_FLAG(std::string, trusted_proxies, "",
          "balancers in front of decisiond, as a comma-separated CIDR list (IPv4 and IPv6, e.g. "
          "10.0.0.0/8,2001:db8::/32): a peer in it may send a PROXY protocol v2 header, and its Forwarded or "
          "X-Forwarded-For header names the client; empty: none, the TCP peer is the client");

namespace service {

absl::Status resolve_client_address_flags(http::HttpLimits& limits) {
  absl::StatusOr<runtime::AddressRanges> ranges = runtime::AddressRanges::parse(absl::GetFlag(FLAGS_trusted_proxies));
  if (!ranges.ok()) return invalid_flag("trusted-proxies", ranges.status().message());
  limits.trusted_proxies = std::make_shared<const runtime::AddressRanges>(*std::move(ranges));
  return absl::OkStatus();
}

}  // namespace service
