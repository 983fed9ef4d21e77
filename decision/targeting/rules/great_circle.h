#pragma once
// Great-circle distance on a spherical Earth (docs/targeting.md, "Location"). The sphere is
// off by at most 0.5% against the ellipsoid, far inside what an ad radius means; what
// matters is that the formula is exact near 0 (radius zero, the same point twice) and
// across the antimeridian, which the haversine form is.
namespace decision::targeting {

// IUGG mean Earth radius.
inline constexpr double kEarthRadiusKm = 6371.0088;

// Degrees in, kilometres out. Latitudes in -90..90, longitudes in any range.
double great_circle_km(double lat1_deg, double lon1_deg, double lat2_deg, double lon2_deg);

}  // namespace decision::targeting
