#pragma once
// The Redis function library of the Redis Cluster cap store (docs/cluster.md "Cap state in
// Redis"): the atomic steps on one user's keys, loaded into every primary by the cluster
// client (FUNCTION LOAD REPLACE) and again on any primary that has lost it.
//
//   decisiond_impression(keys: user hash, impression key;
//                        args: now_s, impression_until_s, attempt, serve_window_s, issued_s,
//                              ad (8 bytes), recent field (8 bytes, or empty), longest recent
//                              window_s, then per bucketed cap: field (8 bytes), window_s,
//                              bucket width_s)
//       -> 1 when the impression counted: its identity unseen (stored with the attempt;
//          counted against every cap of the ad, its pending serve cleared), or seen with
//          this same attempt (counted before, its answer lost: nothing written again);
//          0 when it is a repeat of another attempt's (nothing written).
//   decisiond_pend(keys: user hash; args: now_s, lapses_s, ad (8 bytes))
//       -> 1 when the serve is held pending, 0 at the bound (kMaxPending).
//
// The arithmetic is caps/cap_windows.cc and caps/pending_serves.cc written again in Lua,
// on the same bytes; tests run both stores against one model (tests/integration/cluster/).
#include <string_view>

namespace caps::redis_store {

inline constexpr std::string_view kLibraryName = "decisiond_caps";
inline constexpr std::string_view kImpressionFunction = "decisiond_impression";
inline constexpr std::string_view kPendFunction = "decisiond_pend";

// The library's source, as FUNCTION LOAD takes it.
std::string_view caps_library();

}  // namespace caps::redis_store
