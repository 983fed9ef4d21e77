#pragma once
// The `location` rule (docs/targeting.md): eligible when some request point lies within the
// ad circle's radius plus the request point's radius of some ad circle.
#include <span>

#include "decision/catalog/model.h"
#include "decision/request/decision_request.h"

namespace decision::targeting {

bool location_matches(std::span<const catalog::GeoCircle> ad_circles,
                      std::span<const request::GeoPoint> request_points);

}  // namespace decision::targeting
