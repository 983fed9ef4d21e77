#pragma once
// At start in cluster mode: the impressions a node logged "unapplied" (the shared cap store
// did not take them in time) and never logged "reapplied", read back from its event log, so
// that each is applied again, exactly once by its identity, across restarts and kill -9
// (shared_impression_counter.h).
#include <cstdint>
#include <string>
#include <vector>

#include "tracking/impressions/impression_notice.h"

namespace tracking::shared_impressions {

struct UnappliedScan {
  std::vector<impressions::ImpressionNotice> unapplied;  // oldest first
  uint64_t lines = 0;    // log lines read
  uint64_t expired = 0;  // unapplied but past the store's memory of identities: not applied
};

// Reads every core directory of <state_dir>/events that core owns among cores (directory
// c belongs to c % cores, so a change of --cores loses none). expired_before_s: an
// impression whose token expired before it is left out (the store no longer recognises its
// identity, so applying it could count it twice). written_before_s: files last written
// before it are not read at all (their lines are older still): with a week of logs kept,
// start-up reads only the tail that can still hold something to apply.
UnappliedScan scan_unapplied(const std::string& state_dir, uint32_t core, uint32_t cores, int64_t expired_before_s,
                             int64_t written_before_s);

}  // namespace tracking::shared_impressions
