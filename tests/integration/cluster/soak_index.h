#pragma once
// The logs by impression identity, and the failovers that could have lost a store write:
// what both the counting and the caps checks look things up in.
#include <string>
#include <unordered_map>
#include <vector>

#include "tests/integration/cluster/soak_faults.h"
#include "tests/integration/cluster/soak_log.h"

namespace integration {

struct IdentityLines {
  std::vector<const SoakLine*> impressions;  // every impression line, by time
  std::vector<const SoakLine*> counted;      // those counted (SoakLine::counted), by time
  std::vector<const SoakLine*> unapplied;    // store "unapplied", by time
  const SoakLine* decision = nullptr;        // the decision line that served it
};

using LinesByIdentity = std::unordered_map<std::string, IdentityLines>;
LinesByIdentity index_by_identity(const std::vector<SoakLine>& lines);

// Its lines, one by one, for a finding's example.
std::string describe(const IdentityLines& lines);
// A fault, for a finding's example: "primary_paused 45699 t=1795918937590..1795918939800".
std::string describe(const FaultRecord& fault);

// Counted again by a node re-sending an attempt that was answered already (issue 29 point
// 1: a restart's scan that left one of two attempts of an identity waiting): two counted
// lines carry the same attempt's stamp on one node. Such a double is not blamed on a
// failover. (Every attempt has its unapplied line, written ahead, so two unapplied lines of
// one identity on a node are two calls of it, not a sign of this.)
bool restart_resend_signature(const IdentityLines& lines);

// The hash slot of the user's keys in the cluster.
int user_slot(const std::string& user);

// A failover of the user's slot that began by before_ms and whose primary could still hold
// a write whose line was written from counted_ms on (before the failover had healed);
// nullptr when none.
const FaultRecord* failover_after(const std::vector<FaultRecord>& faults, int slot, int64_t counted_ms,
                                  int64_t before_ms);

}  // namespace integration
