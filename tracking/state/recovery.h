#pragma once
// Start-up: each core's caps and dedup state rebuilt from the latest snapshots plus the
// impressions logged after them (docs/events.md: the log is the source of truth). Runs on
// the main thread before any core serves.
//
// Shard s of the state belongs to core s % cores. A snapshot written under another core
// count still says which core owned each shard then, so a change of --cores moves whole
// shards: each shard is loaded from its old owner's snapshot, the impressions its old owner
// logged after that shard's point are replayed, and the result goes to the new owner. After
// such a change the caller must write every core's snapshot before serving
// (Recovered::snapshots_stale), since the old snapshots no longer name the owners.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "caps/cap_store.h"
#include "tracking/state/core_state.h"

namespace tracking::state {

// The caps of an ad in the catalog in force; empty when it has none or has left.
using AdCapsLookup = std::function<std::span<const caps::CapRule>(uint64_t ad_id)>;

struct RecoveryReport {
  uint32_t snapshots_loaded = 0;
  uint32_t snapshots_refused = 0;  // torn or altered: replay starts further back
  uint64_t files_read = 0;
  uint64_t bytes_read = 0;
  uint64_t lines_read = 0;
  uint64_t torn_lines = 0;
  uint64_t impressions_replayed = 0;  // applied on top of the snapshots
  int64_t duration_ms = 0;
  std::vector<std::string> notes;  // one line each, for the start-up log
};

struct Recovered {
  std::vector<CoreState> cores;  // indexed by core
  // Impressions counted by ad over every core's log, including the logs of cores a smaller
  // --cores no longer runs (each core's own log is in its CoreState::counted_by_ad).
  impressions::CountedByAd counted_by_ad_on_node;
  bool snapshots_stale = false;  // --cores changed: write every core's snapshot before serving
  RecoveryReport report;
};

Recovered recover_state(const std::string& state_dir, uint32_t cores, int64_t now_s, const AdCapsLookup& caps_of);

}  // namespace tracking::state
