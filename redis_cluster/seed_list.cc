#include "redis_cluster/seed_list.h"

#include <charconv>

#include "absl/strings/str_cat.h"
#include "runtime/socket_address.h"

namespace redis_cluster {

namespace {
constexpr std::string_view kScheme = "redis://";

absl::StatusOr<NodeAddress> parse_node(std::string_view text) {
  const auto bad = [&](std::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat("seed '", std::string(text), "': ", std::string(why)));
  };
  if (text.empty()) return bad("empty entry in the seed list");
  const size_t colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("no port (host:port)");
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  unsigned port = 0;
  const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() || port == 0 ||
      port > 65535) {
    return bad("port must be 1 to 65535");
  }
  if (host.empty()) return bad("no host");
  if (!runtime::SocketAddress::parse(text).ok()) {
    return bad("host must be an IPv4 literal, [IPv6] literal or localhost (no DNS look-ups on a reactor)");
  }
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  return NodeAddress{std::string(host), static_cast<uint16_t>(port)};
}
}  // namespace

absl::StatusOr<std::vector<NodeAddress>> parse_seed_list(std::string_view url) {
  if (!url.starts_with(kScheme)) {
    return absl::InvalidArgumentError(absl::StrCat("seed list '", std::string(url), "' must start with redis://"));
  }
  std::string_view rest = url.substr(kScheme.size());
  if (rest.empty()) return absl::InvalidArgumentError("seed list is empty: redis://host:port[,host:port...]");
  std::vector<NodeAddress> seeds;
  while (true) {
    const size_t comma = rest.find(',');
    absl::StatusOr<NodeAddress> node = parse_node(rest.substr(0, comma));
    if (!node.ok()) return node.status();
    seeds.push_back(*std::move(node));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return seeds;
}

std::string to_host_port(const NodeAddress& address) {
  const bool v6 = address.host.find(':') != std::string::npos;
  return v6 ? absl::StrCat("[", address.host, "]:", address.port) : absl::StrCat(address.host, ":", address.port);
}

}  // namespace redis_cluster
