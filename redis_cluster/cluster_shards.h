#pragma once
// The cluster's slot map as CLUSTER SHARDS (Redis 7) tells it: per shard, its slot ranges
// and the node that serves them, the primary (role "master") whose health is "online". In
// RESP2 each shard and each node is a flat array of alternating names and values.
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "redis_cluster/reply.h"
#include "redis_cluster/seed_list.h"

namespace redis_cluster {

struct SlotRange {
  uint16_t first = 0;
  uint16_t last = 0;  // inclusive
};

struct ShardPrimary {
  NodeAddress address;  // ip and port as the cluster announces them
  std::vector<SlotRange> ranges;
};

// Shards with slots but no online primary are left out (their slots have no owner until a
// failover promotes a replica); an ill-formed reply is an error naming what is wrong.
absl::StatusOr<std::vector<ShardPrimary>> parse_cluster_shards(const Reply& reply);

}  // namespace redis_cluster
