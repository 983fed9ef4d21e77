#pragma once
// Where the nodes of a cluster share their delivery goals (docs/pacing.md, "Across nodes"):
// at each round a node reports what its event logs have counted of a goal over their whole
// life, and leases the tokens it wants for the slice, in one atomic step per goal. The
// ledger keeps, per node, the highest total it was told and adds only what a report brings
// beyond it, so a report made again (after a restart, a lease whose answer was lost, a
// node killed mid-report) adds nothing twice. The Redis Cluster implementation is
// redis_ledger/; embedded mode has no ledger.
#include <cstdint>
#include <string_view>

namespace decision::pacing {

struct LeaseRequest {
  uint64_t ad_id = 0;
  int64_t slice_id = 0;           // the slice's start, unix seconds: the same on every node
  int64_t interval_s = 0;         // --pacing-interval: slices older than the one before are settled
  // Who reports: the node's id (--node-id), the same across its restarts, since its event
  // logs (and so its total) outlive the process. Points into the reporter's own storage.
  std::string_view node_id;
  // What this node's event logs have counted of the goal over their whole life (every core's,
  // from the logs at start plus what was counted since): never less than in its last report
  // within one run.
  uint64_t delivered_total = 0;
  // This node's grant of its last lease, now spent or lapsed: it no longer counts as in
  // flight (0 tokens: nothing to settle); of it, what was served, whose impressions other
  // nodes may not have reported yet.
  int64_t settle_slice_id = 0;
  uint64_t settle_tokens = 0;
  uint64_t settle_served = 0;
  uint64_t target = 0;            // impressions the goal should have counted by the slice's end
  uint64_t want = 0;              // tokens this node asks for
  int64_t keep_until_s = 0;       // the goal's state may go after this (its flight's end, and then some)
};

struct LeaseGrant {
  uint64_t tokens = 0;     // granted to this node for the slice
  uint64_t delivered = 0;  // counted by every node, this report included
};

class LeaseDone {
 public:
  virtual ~LeaseDone() = default;
  // granted is null when the ledger did not answer: nothing was granted, and whatever the
  // ledger did with the report, the next report's total covers it.
  virtual void on_lease(const LeaseRequest& request, const LeaseGrant* granted) = 0;
};

class GoalLedger {
 public:
  virtual ~GoalLedger() = default;
  // Asks for one goal; done follows exactly once, never inside lease(), unless lease()
  // returns false (refused: no callback).
  virtual bool lease(const LeaseRequest& request, LeaseDone& done) = 0;
};

}  // namespace decision::pacing
