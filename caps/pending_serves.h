#pragma once
// Pending serves (docs/caps.md "Pending serves"): with a serve window D, an ad served to a
// user counts against its caps until its impression arrives or D passes, so a user who
// reloads a page, or whose calls land on several nodes, is not served past a cap before
// the impressions come back.
//
// Held per (user, ad) as the times at which each pending serve lapses, 5 to an entry,
// kPendingEntries entries at most: kMaxPending serves pending at once per user and ad. An
// impression clears the pending serve that lapses first among those that lapse no later
// than its own would (its issue time plus D): its own when that is still pending, else an
// older one still pending, never a later one. So a cleared serve is never younger than the
// impression's, and a count of pending serves is never lower than it should be.
#include <cstdint>

#include "caps/cap_windows.h"

namespace caps {

inline constexpr uint32_t kPendingEntries = 4;
inline constexpr uint32_t kMaxPending = kPendingEntries * 5;

// Pending serves of one entry still pending at now_s.
uint32_t pending_in(const CapEntry& e, int64_t now_s);
// Adds one lapsing at lapses_s into a free or lapsed slot; false when all 5 are pending.
bool add_pending_serve(CapEntry& e, uint32_t lapses_s, int64_t now_s);
// The earliest time at which a serve still pending at now_s lapses, at or before bound_s;
// 0 when there is none.
uint32_t earliest_pending(const CapEntry& e, uint32_t bound_s, int64_t now_s);
// Clears the serve earliest_pending() names; whether there was one.
bool clear_pending_serve(CapEntry& e, uint32_t bound_s, int64_t now_s);

}  // namespace caps
