#pragma once
// The flags of cluster mode (docs/cluster.md): where caps, pending serves and impression
// dedup live, and how long a decision waits for them. Embedded mode, the default, needs
// none of them.
#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "redis_cluster/seed_list.h"

namespace service {

struct ClusterSettings {
  std::string node_id;             // --node-id: this node's name (default: the host name)
  std::string caps_store_url;      // --caps-store: empty for "local", else redis://host:port[,...]
  std::vector<redis_cluster::NodeAddress> caps_store_seeds;  // parsed from caps_store_url
  std::string caps_store_user;     // --caps-store-user: Redis ACL user (empty: the default user)
  std::string caps_store_password; // read from --caps-store-password-file; never a flag itself
  absl::Duration caps_timeout;     // --caps-timeout: how long a decision waits for the cap store
  absl::Duration cap_serve_window; // --cap-serve-window: how long a served capped ad is pending
  bool shared_caps() const { return !caps_store_url.empty(); }
};

// Reads the cluster flags into config; the error is one line naming the flag.
absl::Status resolve_cluster_flags(ClusterSettings& config);

}  // namespace service
