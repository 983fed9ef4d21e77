#pragma once
// What one node says about the cluster: CLUSTER NODES lines and INFO fields, parsed.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace integration {

inline constexpr int kClusterSlots = 16384;

struct NodeLine {
  std::string id;
  uint16_t port = 0;
  std::vector<std::string> flags;  // myself, master, slave, fail?, fail, handshake, noaddr...
  std::string primary_id;          // empty for a primary
  std::vector<std::pair<int, int>> slots;  // inclusive ranges
  bool migrating = false;  // an open [slot->-id] or [slot-<-id] entry

  bool has_flag(std::string_view flag) const;
  bool is_primary() const { return has_flag("master"); }
  bool failing() const { return has_flag("fail") || has_flag("fail?"); }
  int slot_count() const;
  bool serves(int slot) const;
};

// One line per node of CLUSTER NODES; lines it cannot read are left out.
std::vector<NodeLine> parse_cluster_nodes(std::string_view text);

// "ok" for info_field(cluster_info, "cluster_state"); empty when absent.
std::string info_field(std::string_view info, std::string_view name);

// Every node's role, primary and slots: the same text on every node that agrees with this
// one. Roles spread by gossip after slots do, so agreeing on slots alone is not enough.
std::string topology(const std::vector<NodeLine>& nodes);

}  // namespace integration
