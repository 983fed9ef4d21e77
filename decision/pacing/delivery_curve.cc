#include "decision/pacing/delivery_curve.h"

#include <algorithm>
#include <cmath>

namespace decision::pacing {

double flight_share(int64_t start_s, int64_t end_s, int64_t now_s) {
  if (end_s <= start_s) return 1.0;
  if (now_s <= start_s) return 0.0;
  if (now_s >= end_s) return 1.0;
  return static_cast<double>(now_s - start_s) / static_cast<double>(end_s - start_s);
}

double target_share(catalog::Pacing pacing, double s) {
  s = std::clamp(s, 0.0, 1.0);
  switch (pacing) {
    case catalog::Pacing::kEven: return s;
    case catalog::Pacing::kFrontloaded: return s + kFrontloadLead * s * (1.0 - s);
    case catalog::Pacing::kAsap: return 1.0;
  }
  return s;
}

uint64_t target_at(const catalog::DeliveryGoal& goal, int64_t start_s, int64_t end_s, int64_t now_s) {
  const double share = target_share(goal.pacing, flight_share(start_s, end_s, now_s));
  const double target = std::ceil(static_cast<double>(goal.impressions) * share - 1e-9);
  return std::min<uint64_t>(goal.impressions, static_cast<uint64_t>(std::max(0.0, target)));
}

}  // namespace decision::pacing
