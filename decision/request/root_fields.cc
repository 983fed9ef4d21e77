// The request's top level: placements, user, device, app. Unknown fields are walked (they
// must be JSON) and otherwise ignored, as the spec's tolerant reader asks.
#include "decision/request/read_context.h"
#include "http/error_codes.h"

namespace decision::request {
namespace {

using http::error_code::kInvalidPlacements;
using http::error_code::kInvalidDeviceOrApp;

bool read_placements(ReadContext& ctx, ondemand::value& value, DecisionRequest& out,
                     bool& present) {
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind == ondemand::json_type::null) return ctx.check_null(value);  // as if absent
  present = true;
  if (kind != ondemand::json_type::array) {
    ctx.error(kInvalidPlacements, "placements must be an array");
    return ctx.skip(value);
  }
  ondemand::array array;
  if (value.get_array().get(array) != simdjson::SUCCESS) return ctx.fail(JsonFault::kInvalid);
  if (!ctx.enter()) return false;
  uint32_t index = 0;
  for (auto item_result : array) {
    ondemand::value item;
    if (item_result.get(item) != simdjson::SUCCESS) return ctx.fail(JsonFault::kInvalid);
    if (index < kMaxPlacements) {
      // Items past the bound are only checked to be JSON: their errors would add nothing
      // the "at most 20" error does not already say.
      PathScope scope(ctx.path, index);
      PlacementRequest& placement = out.placement_slots[index];
      placement.clear();
      if (!read_placement(ctx, item, placement)) return false;
      out.placement_count = index + 1;
    } else if (!ctx.skip(item)) {
      return false;
    }
    ++index;
  }
  ctx.leave();
  if (index == 0) ctx.error(kInvalidPlacements, "placements must not be empty");
  if (index > kMaxPlacements) {
    ++ctx.counters.placements_over_limit;
    ctx.error(kInvalidPlacements, "placements must have at most 20 items");
  }
  return true;
}

// device and app: kept as raw JSON text for the CEL `device` and `app` variables.
bool read_raw_object(ReadContext& ctx, ondemand::value& value, std::string_view message,
                     std::string_view& out) {
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind == ondemand::json_type::null) return ctx.check_null(value);
  if (kind != ondemand::json_type::object) {
    ctx.error(kInvalidDeviceOrApp, message);
    return ctx.skip(value);
  }
  return ctx.skip_capturing(value, out);
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
        PathScope scope(ctx.path, "placements");
        ctx.forget_errors();
        out.placement_count = 0;
        placements_present = false;
        if (!read_placements(ctx, value, out, placements_present)) return false;
      } else if (key == "user") {
        PathScope scope(ctx.path, "user");
        ctx.forget_errors();
        out.user.clear();
        out.has_user = false;
        out.user_json = {};
        const char* start = value.raw_json_token().data();
        if (!read_user(ctx, value, out.user, out.has_user)) return false;
        // The text too, for `custom` rules that read `user` (when it is an object: any
        // other kind is an error reported above).
        if (out.has_user && *start == '{' && !ctx.raw_since(start, out.user_json)) return false;
      } else if (key == "device") {
        PathScope scope(ctx.path, "device");
        ctx.forget_errors();
        out.device_json = {};
        if (!read_raw_object(ctx, value, "device must be an object", out.device_json)) return false;
      } else if (key == "app") {
        PathScope scope(ctx.path, "app");
        ctx.forget_errors();
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
