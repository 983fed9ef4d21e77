#include "decision/targeting/rules/location_rule.h"

#include "decision/targeting/rules/great_circle.h"

namespace decision::targeting {

bool location_matches(std::span<const catalog::GeoCircle> ad_circles,
                      std::span<const request::GeoPoint> request_points) {
  for (const request::GeoPoint& point : request_points) {
    for (const catalog::GeoCircle& circle : ad_circles) {
      const double reach_km = circle.radius_km + point.radius_km;
      if (great_circle_km(point.lat_deg, point.lon_deg, circle.lat, circle.lon) <= reach_km) return true;
    }
  }
  return false;
}

}  // namespace decision::targeting
