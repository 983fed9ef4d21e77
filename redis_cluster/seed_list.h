#pragma once
// The cluster's seed nodes as the operator writes them: "redis://host:port[,host:port...]".
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace redis_cluster {

struct NodeAddress {
  std::string host;
  uint16_t port = 0;
  friend bool operator==(const NodeAddress&, const NodeAddress&) = default;
};

// Hosts must be IP literals ([v6] in brackets) or localhost: the client resolves no names,
// since a DNS look-up would block the reactor. Errors name what is wrong (empty list,
// missing scheme, bad port, a host that is not an address, ...).
absl::StatusOr<std::vector<NodeAddress>> parse_seed_list(std::string_view url);

// "host:port" as Redis writes node addresses (MOVED, ASK) and SocketAddress::parse reads.
std::string to_host_port(const NodeAddress& address);

}  // namespace redis_cluster
