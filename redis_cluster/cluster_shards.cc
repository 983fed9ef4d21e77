#include "redis_cluster/cluster_shards.h"

#include <optional>
#include <string_view>

#include "redis_cluster/key_slot.h"

namespace redis_cluster {

namespace {
// The value after `name` in a flat name/value array; nullopt when absent.
std::optional<Reply> field(const Reply& map, std::string_view name) {
  if (map.kind() != Reply::Kind::kArray) return std::nullopt;
  for (size_t i = 0; i + 1 < map.size(); i += 2) {
    if (map.at(i).text() == name) return map.at(i + 1);
  }
  return std::nullopt;
}

// Redis sends integers; a proxy or an older build may send them as strings.
std::optional<int64_t> number(const Reply& value) {
  if (value.kind() == Reply::Kind::kInteger) return value.integer();
  if (value.kind() != Reply::Kind::kString) return std::nullopt;
  int64_t n = 0;
  for (const char c : value.text()) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return value.text().empty() ? std::nullopt : std::optional<int64_t>(n);
}

std::optional<NodeAddress> online_primary(const Reply& nodes) {
  for (size_t n = 0; n < nodes.size(); ++n) {
    const Reply node = nodes.at(n);
    const auto role = field(node, "role");
    const auto health = field(node, "health");
    const auto ip = field(node, "ip");
    const auto port = field(node, "port");
    if (!role || role->text() != "master" || !health || health->text() != "online" || !ip || !port) continue;
    const std::optional<int64_t> port_number = number(*port);
    if (!port_number || *port_number <= 0 || *port_number > 65535 || ip->text().empty()) continue;
    return NodeAddress{std::string(ip->text()), static_cast<uint16_t>(*port_number)};
  }
  return std::nullopt;
}
}  // namespace

absl::StatusOr<std::vector<ShardPrimary>> parse_cluster_shards(const Reply& reply) {
  if (reply.kind() != Reply::Kind::kArray) return absl::InvalidArgumentError("CLUSTER SHARDS: not an array");
  std::vector<ShardPrimary> shards;
  for (size_t s = 0; s < reply.size(); ++s) {
    const Reply shard = reply.at(s);
    const auto slots = field(shard, "slots");
    const auto nodes = field(shard, "nodes");
    if (!slots || !nodes || slots->kind() != Reply::Kind::kArray || nodes->kind() != Reply::Kind::kArray ||
        slots->size() % 2 != 0) {
      return absl::InvalidArgumentError("CLUSTER SHARDS: a shard without slots and nodes");
    }
    if (slots->size() == 0) continue;
    std::optional<NodeAddress> primary = online_primary(*nodes);
    if (!primary) continue;
    ShardPrimary out{*std::move(primary), {}};
    for (size_t r = 0; r < slots->size(); r += 2) {
      const auto first = number(slots->at(r));
      const auto last = number(slots->at(r + 1));
      if (!first || !last || *first > *last || *last >= kSlotCount) {
        return absl::InvalidArgumentError("CLUSTER SHARDS: a slot range out of 0..16383");
      }
      out.ranges.push_back({static_cast<uint16_t>(*first), static_cast<uint16_t>(*last)});
    }
    shards.push_back(std::move(out));
  }
  return shards;
}

}  // namespace redis_cluster
