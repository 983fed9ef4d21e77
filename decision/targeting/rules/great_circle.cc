#include "decision/targeting/rules/great_circle.h"

#include <algorithm>
#include <cmath>

namespace decision::targeting {

double great_circle_km(double lat1_deg, double lon1_deg, double lat2_deg, double lon2_deg) {
  constexpr double kRadiansPerDegree = M_PI / 180.0;
  const double lat1 = lat1_deg * kRadiansPerDegree;
  const double lat2 = lat2_deg * kRadiansPerDegree;
  const double half_dlat = (lat2 - lat1) / 2;
  const double half_dlon = (lon2_deg - lon1_deg) * kRadiansPerDegree / 2;
  const double sin_dlat = std::sin(half_dlat);
  const double sin_dlon = std::sin(half_dlon);
  const double h = sin_dlat * sin_dlat + std::cos(lat1) * std::cos(lat2) * sin_dlon * sin_dlon;
  // Rounding can push h a hair past 1 for antipodal points; asin would return NaN.
  return 2 * kEarthRadiusKm * std::asin(std::sqrt(std::min(1.0, h)));
}

}  // namespace decision::targeting
