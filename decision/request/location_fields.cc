// placements[].targeting.location: points with a radius. DESIGN section 4 names the fields
// lat/lon/radius (km, default 0) and accepts latitude/longitude/radiusKm as well.
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
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind == ondemand::json_type::null) return ctx.check_null(value);  // as if absent
  if (kind != ondemand::json_type::number) {
    ctx.error(kInvalidLocation, message);
    // A lat or lon given but wrong is reported as such, not again as missing.
    if (which == Coordinate::kLat) fields.has_lat = true;
    if (which == Coordinate::kLon) fields.has_lon = true;
    return ctx.skip(value);
  }
  double number = 0;
  bool in_range = false;
  if (!ctx.get_double(value, number, in_range)) return false;
  switch (which) {
    case Coordinate::kLat:
      fields.has_lat = true;
      in_range = in_range && number >= -90.0 && number <= 90.0;
      if (in_range) fields.point.lat_deg = number;
      break;
    case Coordinate::kLon:
      fields.has_lon = true;
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
  ondemand::object object;
  if (value.get_object().get(object) != simdjson::SUCCESS) return ctx.fail(JsonFault::kInvalid);
  PointFields fields;
  const bool walked =
      ctx.for_each_field(object, [&](std::string_view name, ondemand::value& field_value) {
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
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind == ondemand::json_type::null) return ctx.check_null(value);
  if (kind != ondemand::json_type::array) {
    ctx.error(kInvalidLocation, "location must be an array");
    return ctx.skip(value);
  }
  ondemand::array array;
  if (value.get_array().get(array) != simdjson::SUCCESS) return ctx.fail(JsonFault::kInvalid);
  if (!ctx.enter()) return false;
  uint32_t index = 0;
  for (auto item_result : array) {
    ondemand::value item;
    if (item_result.get(item) != simdjson::SUCCESS) return ctx.fail(JsonFault::kInvalid);
    if (index < kMaxLocationPoints) {
      PathScope scope(ctx.path, index);
      if (!read_point(ctx, item, out.location_points[index])) return false;
      out.location_count = index + 1;
    } else if (!ctx.skip(item)) {
      return false;
    }
    ++index;
  }
  ctx.leave();
  if (index > kMaxLocationPoints) {
    ++ctx.counters.location_over_limit;
    ctx.error(kInvalidLocation, "location must have at most 16 items");
  }
  return true;
}

}  // namespace decision::request
