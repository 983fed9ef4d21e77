#pragma once
// The goals' ledger in the Redis Cluster of cluster mode (docs/pacing.md, "Across nodes"):
// one FCALL decisiond_pace per goal and round, on the goal's own slot, through the
// coordinating core's cluster client. A call not answered within its deadline is granted
// nothing (the ad is not served that slice on this node); the next report's total covers
// whatever this one carried.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "decision/pacing/goal_ledger.h"
#include "redis_cluster/cluster_client.h"
#include "runtime/clock.h"
#include "runtime/core_counter.h"

namespace decision::pacing::redis_ledger {

struct LedgerCounters {
  runtime::CoreCounter leases;    // FCALLs answered
  runtime::CoreCounter failures;  // not answered in time, refused, or an error reply
};

class RedisGoalLedger final : public GoalLedger {
 public:
  // Loads the library on every primary the client connects to.
  RedisGoalLedger(redis_cluster::ClusterClient& client, const runtime::Clock& clock, int64_t timeout_ns);
  ~RedisGoalLedger() override;

  bool lease(const LeaseRequest& request, LeaseDone& done) override;
  const LedgerCounters& counters() const { return counters_; }

 private:
  class LeaseCall;
  void finish(LeaseCall& call, const LeaseGrant* granted);

  redis_cluster::ClusterClient& client_;
  const runtime::Clock& clock_;
  const int64_t timeout_ns_;
  std::vector<std::unique_ptr<LeaseCall>> calls_;  // every call ever made, reused
  std::vector<LeaseCall*> free_;
  LedgerCounters counters_;
};

}  // namespace decision::pacing::redis_ledger
