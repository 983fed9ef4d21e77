// The request's top level: placements, user, device, app. Unknown fields are walked (they
// must be JSON) and otherwise ignored: a tolerant reader (docs/decision-request.md).
#include "decision/request/read_context.h"
#include "http/error_codes.h"

namespace decision::request {
namespace {

using http::error_code::kInvalidPlacements;
using http::error_code::kInvalidDeviceOrApp;

bool read_placements(ReadContext& ctx, ondemand::value& value, DecisionRequest& out,
                     bool& present) {
  const Found found = ctx.expect(value, ondemand::json_type::array, kInvalidPlacements,
                                 "placements must be an array");
  if (found == Found::kFault) return false;
  present = found != Found::kNull;  // null: as if absent, so still required
  if (found != Found::kExpected) return true;
  uint32_t items = 0;
  const bool walked = ctx.for_each_item(value, kMaxPlacements, items,
                                        [&](uint32_t index, ondemand::value& item) {
    PathScope scope(ctx.path, index);
    PlacementRequest& placement = out.placement_slots[index];
    placement.clear();
    if (!read_placement(ctx, item, placement)) return false;
    out.placement_count = index + 1;
    return true;
  });
  if (!walked) return false;
  if (items == 0) ctx.error(kInvalidPlacements, "placements must not be empty");
  if (items > kMaxPlacements) {
    ++ctx.counters.placements_over_limit;
    ctx.error(kInvalidPlacements, "placements must have at most 20 items");
  }
  return true;
}

// device and app: kept as raw JSON text for the CEL `device` and `app` variables.
bool read_raw_object(ReadContext& ctx, ondemand::value& value, std::string_view message,
                     std::string_view& out) {
  const Found found = ctx.expect(value, ondemand::json_type::object, kInvalidDeviceOrApp, message);
  if (found != Found::kExpected) return found != Found::kFault;
  return ctx.skip_capturing(value, out);
}

// device: its raw text, as app's, and `ua` when it is a string, the agent the robot check
// judges before the User-Agent header (docs/invalid-traffic.md). The device object's inner
// fields are the client's own (docs/decision-request.md names none), so a `ua` of another
// kind is not an error: it is not used.
bool read_device(ReadContext& ctx, ondemand::value& value, DecisionRequest& out) {
  const Found found = ctx.expect(value, ondemand::json_type::object, kInvalidDeviceOrApp, "device must be an object");
  if (found != Found::kExpected) return found != Found::kFault;
  const char* start = value.raw_json_token().data();
  const bool walked = ctx.for_each_field(value, [&](std::string_view name, ondemand::value& field_value) {
    if (name != "ua") return ctx.skip(field_value);
    out.device_ua = {};
    ondemand::json_type type;
    if (!ctx.type(field_value, type)) return false;
    if (type != ondemand::json_type::string) return ctx.skip(field_value);
    return ctx.get_string(field_value, out.device_ua);
  });
  return walked && ctx.raw_since(start, out.device_json);
}

}  // namespace

bool read_root(ReadContext& ctx, ondemand::object& root, DecisionRequest& out) {
  static_assert(kMaxPlacements == 20, "update the 10010 message");
  bool placements_present = false;
  const bool walked =
      ctx.for_each_field(root, [&](std::string_view key, ondemand::value& value) {
      // A key given twice: the last one wins, so each known field starts from empty and
      // forgets the errors of its earlier value.
      if (key == "placements") {
        FieldScope field(ctx, "placements");
        out.placement_count = 0;
        placements_present = false;
        if (!read_placements(ctx, value, out, placements_present)) return false;
      } else if (key == "user") {
        FieldScope field(ctx, "user");
        out.user.clear();
        out.has_user = false;
        out.user_json = {};
        const char* start = value.raw_json_token().data();
        if (!read_user(ctx, value, out.user, out.has_user)) return false;
        // The text too, for `custom` rules that read `user` (when it is an object: any
        // other kind is an error reported above).
        if (out.has_user && *start == '{' && !ctx.raw_since(start, out.user_json)) return false;
      } else if (key == "device") {
        FieldScope field(ctx, "device");
        out.device_json = {};
        out.device_ua = {};
        if (!read_device(ctx, value, out)) return false;
      } else if (key == "app") {
        FieldScope field(ctx, "app");
        out.app_json = {};
        if (!read_raw_object(ctx, value, "app must be an object", out.app_json)) return false;
      } else if (!ctx.skip(value)) {
        return false;
      }
      return true;
      });
  if (!walked) return false;
  if (!placements_present) ctx.error_at("placements", kInvalidPlacements, "placements is required");
  return true;
}

}  // namespace decision::request
