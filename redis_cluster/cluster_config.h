#pragma once
// What a ClusterClient is given and what it tells its callers (cluster_client.h).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "redis_cluster/reply.h"
#include "redis_cluster/seed_list.h"

namespace redis_cluster {

struct ClusterConfig {
  std::vector<NodeAddress> seeds;
  std::string user;      // ACL user; empty: the default user
  std::string password;  // empty: no AUTH
  int64_t connect_timeout_ms = 1000;
  int64_t backoff_min_ms = 50, backoff_max_ms = 2000;
  uint32_t max_in_flight = 4096;  // calls per core waiting for a reply
  uint32_t max_redirects = 5;     // MOVED, ASK and retries (TRYAGAIN, CLUSTERDOWN, LOADING) per call
  // Bytes queued on one connection and not yet handed to the kernel: past it, calls to
  // that node fail (kUnavailable) instead of piling up behind a node that does not read.
  size_t max_pending_bytes = 4 << 20;
};

enum class CallFailure : uint8_t {
  kTimeout,
  // No connected primary for the slot, the connection lost with the call in flight, the
  // cluster down past the redirect bound, the client stopped.
  kUnavailable,
};

// Owned by the caller; one command at a time per Call object.
class Call {
 public:
  virtual ~Call() = default;
  // Any reply, error replies included, except those the client handles itself (MOVED, ASK,
  // TRYAGAIN, CLUSTERDOWN, LOADING, and the first "ERR Function not found").
  virtual void on_reply(const Reply& reply) = 0;
  virtual void on_failed(CallFailure why) = 0;
};

enum class ClusterState : uint8_t {
  kStarting,    // no slot map yet, never had one
  kUp,          // every slot has a connected primary
  kPartial,     // some slots have no reachable primary
  kDown,        // none has, or the slot map was lost
  kNotCluster,  // a seed answered that cluster support is disabled
  kAuthFailed,  // AUTH refused (WRONGPASS, NOAUTH)
};

std::string_view state_name(ClusterState state);

}  // namespace redis_cluster
