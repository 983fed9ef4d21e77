#pragma once
// The soak's faults: carried out one after another while the clients run, each healed
// before the next gap begins (a killed primary restarted as a
// replica, a paused one resumed, the cluster settled; a node started again on its state
// directory), and records what it did and when, for the checks to attribute what they find.
// On the test's main thread, never one of its own: the fixtures tie every process they start
// to the thread that forked it (PR_SET_PDEATHSIG), so a redis-server restarted from a thread
// that then ends would be killed with it.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tests/integration/cluster/cluster_nodes.h"
#include "tests/integration/cluster/soak_node_directory.h"
#include "tests/integration/cluster/soak_schedule.h"
#include "tests/integration/redis_cluster/redis_cluster_fixture.h"

namespace integration {

struct FaultRecord {
  FaultKind kind = FaultKind::kPrimaryKilled;
  uint32_t target = 0;      // the node's index, or the primary's port
  int64_t start_ms = 0;     // Unix milliseconds when the signal was sent
  int64_t healed_ms = 0;    // when the node served again, or the cluster had settled
  bool failed_over = false; // a primary's slots went to its replica (always after a kill)
  std::vector<std::pair<int, int>> slots;  // a primary's slots when it was hit
  std::optional<ExitStatus> exit;          // a node's: how the stopped process ended
  std::string error;                       // why healing failed; the run stops faulting then

  bool hit_slot(int slot) const;
};

class SoakFaults {
 public:
  SoakFaults(RedisCluster& redis, ClusterNodes& nodes, NodeDirectory& directory);
  // The plan, fault after fault, until duration_ms from now; what was done. Returns at the
  // deadline, or as soon as a fault could not be healed.
  std::vector<FaultRecord> carry_out(const std::vector<PlannedFault>& plan, int64_t duration_ms);

 private:
  FaultRecord primary_fault(const PlannedFault& fault);
  FaultRecord node_fault(const PlannedFault& fault);

  RedisCluster& redis_;
  ClusterNodes& nodes_;
  NodeDirectory& directory_;
};

}  // namespace integration
