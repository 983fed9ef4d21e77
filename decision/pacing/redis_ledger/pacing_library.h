#pragma once
// The Redis function library of the goals shared by a cluster's nodes (docs/pacing.md,
// "Across nodes"), loaded into every primary by the cluster client as the cap store's is.
//
//   decisiond_pace(keys: the goal's hash "dcd:{p:<ad, 16 hex>}";
//                  args: slice id, interval s, node id, the node's delivered total, settled
//                        slice id, settled tokens, of which served, target, want, keep
//                        until (unix s))
//       -> {granted, delivered}. The hash keeps per node the highest total it reported
//          ("n:<node id>"); what the total brings beyond it is added to the goal's count
//          (every node's) and to this slice's reports, so a report made again (a restart
//          reporting its logs' total, a lease whose answer was lost) adds nothing twice. The
//          node's last grant is settled; then
//            granted = min(want, target - delivered - in flight - served unreported), or 0:
//          in flight is what this slice and the one before granted and no node has settled;
//          served unreported is what the slice before served, less what this slice's
//          reports have counted so far (the impressions of those serves, counted on any
//          node, come in with each node's report). So no grant is made against serves whose
//          impressions are not reported yet. Older slices are forgotten (a node that died
//          with tokens holds nothing back after two slices). The hash expires at keep-until.
#include <array>
#include <string>
#include <string_view>

#include "decision/pacing/goal_ledger.h"

namespace decision::pacing::redis_ledger {

inline constexpr std::string_view kPaceFunction = "decisiond_pace";

// The library's source, as FUNCTION LOAD takes it.
std::string_view pacing_library();

// The goal's hash: its own slot.
std::string pace_key(uint64_t ad_id);
// decisiond_pace's arguments for a lease, in the order above.
inline constexpr size_t kPaceArguments = 10;
std::array<std::string, kPaceArguments> pace_arguments(const LeaseRequest& request);

}  // namespace decision::pacing::redis_ledger
