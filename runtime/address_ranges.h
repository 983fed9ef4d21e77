#pragma once
// A list of address ranges in CIDR notation (--trusted-proxies, docs/client_address.md):
// "10.0.0.0/8, 192.0.2.7, 2001:db8::/32". A bare address is a range of one. Ranges of
// IPv4-mapped IPv6 addresses (::ffff:10.0.0.0/104) are kept as the IPv4 ranges they map, as
// IpAddress keeps such addresses, so either spelling matches the same clients.
//
// Read at start, then only looked up: once per accepted connection and once per
// Forwarded hop of a request from a trusted peer. A linear scan of at most kMaxRanges.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/ip_address.h"

namespace runtime {

class AddressRanges {
 public:
  // More ranges than a balancer fleet needs; a longer list is refused at start.
  static constexpr size_t kMaxRanges = 256;

  // Comma-separated, spaces around items ignored; empty text: no range. An item that is not
  // an address with an optional /prefix, a prefix past the family's width, or host bits set
  // below the prefix (10.0.0.1/8: a typing mistake more often than a wish) is an error
  // naming the item.
  static absl::StatusOr<AddressRanges> parse(std::string_view text);

  bool empty() const { return ranges_.empty(); }
  size_t size() const { return ranges_.size(); }
  bool contains(const IpAddress& address) const;

 private:
  struct Range {
    IpAddress::Family family = IpAddress::Family::kNone;
    std::array<uint8_t, 16> bytes{};
    uint8_t prefix_bits = 0;
  };
  static bool matches(const Range& range, const IpAddress& address);

  std::vector<Range> ranges_;
};

}  // namespace runtime
