#pragma once
// Where a goal should stand at a moment of its flight (docs/pacing.md, "The curve"): the
// share of the goal that should have been delivered once a share of the flight's expected
// traffic has passed. Expected traffic is taken as flat over the flight, so the traffic
// share is the time share.
#include <cstdint>

#include "decision/catalog/model.h"

namespace decision::pacing {

// How far frontloaded runs ahead of even: at mid-flight it aims 25% above even's half,
// Google Ad Manager's "frontloaded" (125% of the even goal early in the flight).
inline constexpr double kFrontloadLead = 0.5;

// The flight's share that has passed at now_s, in [0, 1].
double flight_share(int64_t start_s, int64_t end_s, int64_t now_s);

// The goal's share that should be delivered at flight share s in [0, 1]: even s,
// frontloaded s + kFrontloadLead * s * (1 - s) (ahead early, the same at the end), asap 1.
double target_share(catalog::Pacing pacing, double flight_share);

// Impressions that should be counted by now_s: the goal times the target share, rounded up.
uint64_t target_at(const catalog::DeliveryGoal& goal, int64_t start_s, int64_t end_s, int64_t now_s);

}  // namespace decision::pacing
