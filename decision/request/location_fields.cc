// placements[].targeting.location: points with a radius. The fields are lat/lon/radius (km,
// default 0), latitude/longitude/radiusKm accepted as well (docs/decision-request.md).
#include "decision/request/read_context.h"
#include "http/error_codes.h"

namespace decision::request {
namespace {

using http::error_code::kInvalidLocation;

enum class Coordinate { kLat, kLon, kRadius };

struct PointFields {
  GeoPoint point;
  bool has_lat = false;
  bool has_lon = false;
};

// A coordinate as a JSON number within its range. False only on a fault.
bool read_coordinate(ReadContext& ctx, ondemand::value& value, Coordinate which,
                     PointFields& fields) {
  static constexpr std::string_view kMessages[] = {
      "lat must be a number from -90 to 90",
      "lon must be a number from -180 to 180",
      "radius must be a number of km, 0 or more",
  };
  const std::string_view message = kMessages[static_cast<int>(which)];
  const Found found = ctx.expect(value, ondemand::json_type::number, kInvalidLocation, message);
  if (found == Found::kFault) return false;
  // A lat or lon given counts as given: a wrong one is reported as such, not again as missing.
  if (found != Found::kNull && which == Coordinate::kLat) fields.has_lat = true;
  if (found != Found::kNull && which == Coordinate::kLon) fields.has_lon = true;
  if (found != Found::kExpected) return true;
  double number = 0;
  bool in_range = false;
  if (!ctx.get_double(value, number, in_range)) return false;
  switch (which) {
    case Coordinate::kLat:
      in_range = in_range && number >= -90.0 && number <= 90.0;
      if (in_range) fields.point.lat_deg = number;
      break;
    case Coordinate::kLon:
      in_range = in_range && number >= -180.0 && number <= 180.0;
      if (in_range) fields.point.lon_deg = number;
      break;
    case Coordinate::kRadius:
      in_range = in_range && number >= 0.0;
      if (in_range) fields.point.radius_km = number;
      break;
  }
  if (!in_range) ctx.error(kInvalidLocation, message);
  return true;
}

bool read_point(ReadContext& ctx, ondemand::value& value, GeoPoint& out) {
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind != ondemand::json_type::object) {
    ctx.error(kInvalidLocation, "location item must be an object");
    return ctx.skip(value);
  }
  PointFields fields;
  const bool walked =
      ctx.for_each_field(value, [&](std::string_view name, ondemand::value& field_value) {
      // Both spellings name one field: the last one given wins, and the errors of an earlier
      // one are forgotten.
      std::string_view spellings[2];
      Coordinate which;
      if (name == "lat" || name == "latitude") {
        which = Coordinate::kLat;
        spellings[0] = "lat", spellings[1] = "latitude";
        fields.has_lat = false;
      } else if (name == "lon" || name == "longitude") {
        which = Coordinate::kLon;
        spellings[0] = "lon", spellings[1] = "longitude";
        fields.has_lon = false;
      } else if (name == "radius" || name == "radiusKm") {
        which = Coordinate::kRadius;
        spellings[0] = "radius", spellings[1] = "radiusKm";
        fields.point.radius_km = 0;
      } else {
        if (!ctx.skip(field_value)) return false;
        return true;
      }
      ctx.forget_errors_at(spellings[0]);
      ctx.forget_errors_at(spellings[1]);
      PathScope scope(ctx.path, name);
      if (!read_coordinate(ctx, field_value, which, fields)) return false;
      return true;
      });
  if (!walked) return false;
  if (!fields.has_lat) ctx.error_at("lat", kInvalidLocation, "lat is required");
  if (!fields.has_lon) ctx.error_at("lon", kInvalidLocation, "lon is required");
  out = fields.point;
  return true;
}

}  // namespace

bool read_location(ReadContext& ctx, ondemand::value& value, Targeting& out) {
  static_assert(kMaxLocationPoints == 16, "update the message");
  const Found found =
      ctx.expect(value, ondemand::json_type::array, kInvalidLocation, "location must be an array");
  if (found != Found::kExpected) return found != Found::kFault;
  uint32_t items = 0;
  const bool walked = ctx.for_each_item(value, kMaxLocationPoints, items,
                                        [&](uint32_t index, ondemand::value& item) {
    PathScope scope(ctx.path, index);
    if (!read_point(ctx, item, out.location_points[index])) return false;
    out.location_count = index + 1;
    return true;
  });
  if (!walked) return false;
  if (items > kMaxLocationPoints) {
    ++ctx.counters.location_over_limit;
    ctx.error(kInvalidLocation, "location must have at most 16 items");
  }
  return true;
}

}  // namespace decision::request
