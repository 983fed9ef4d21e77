// placements[].targeting: geo and destination ids here; location and custom in their files.
#include <array>

#include "decision/request/json_number.h"
#include "decision/request/read_context.h"
#include "http/error_codes.h"

namespace decision::request {
namespace {

// docs/errors.md gives 10017 to bad geo and destination values; a targeting that is not
// an object is a bad targeting as a whole, and gets the same code.
using http::error_code::kInvalidGeoTargeting;

struct IdList {
  std::string_view not_array;
  std::string_view bad_item;
  std::string_view too_many;
  uint64_t* over_limit_counter;
};

// A GeoNames id: a positive integer written as a JSON integer (no fraction, no exponent:
// an id is an exact value, not a quantity) or as a string of ASCII digits. False only on a
// fault; `id` empty when the value is no such id.
bool read_id(ReadContext& ctx, ondemand::value& value, std::optional<uint64_t>& id) {
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind == ondemand::json_type::number) {
    std::string_view token;
    if (!ctx.number_token(value, token)) return false;
    id = digits_value(token);  // nothing for '-', '.', 'e' or overflow
  } else if (kind == ondemand::json_type::string) {
    std::string_view text;
    if (!ctx.get_string(value, text)) return false;
    id = digits_value(text);
  } else if (!ctx.skip(value)) {
    return false;
  }
  if (id == 0u) id.reset();
  return true;
}

template <size_t N>
bool read_ids(ReadContext& ctx, ondemand::value& value, const IdList& list,
              std::array<uint64_t, N>& ids, uint32_t& count) {
  const Found found =
      ctx.expect(value, ondemand::json_type::array, kInvalidGeoTargeting, list.not_array);
  if (found != Found::kExpected) return found != Found::kFault;
  uint32_t items = 0;
  const bool walked =
      ctx.for_each_item(value, N, items, [&](uint32_t index, ondemand::value& item) {
    std::optional<uint64_t> id;
    if (!read_id(ctx, item, id)) return false;
    if (id) {
      ids[count++] = *id;
    } else {
      PathScope scope(ctx.path, index);
      ctx.error(kInvalidGeoTargeting, list.bad_item);
    }
    return true;
  });
  if (!walked) return false;
  if (items > N) {
    ++*list.over_limit_counter;
    ctx.error(kInvalidGeoTargeting, list.too_many);
  }
  return true;
}

}  // namespace

bool read_targeting(ReadContext& ctx, ondemand::value& value, Targeting& out) {
  static_assert(kMaxGeoIds == 64 && kMaxDestinationIds == 64, "update the messages");
  const IdList geo{"geo must be an array", "geo ids must be positive integers",
                   "geo must have at most 64 ids", &ctx.counters.geo_over_limit};
  const IdList destination{"destination must be an array",
                           "destination ids must be positive integers",
                           "destination must have at most 64 ids",
                           &ctx.counters.destination_over_limit};
  const Found found = ctx.expect(value, ondemand::json_type::object, kInvalidGeoTargeting,
                                 "targeting must be an object");
  if (found != Found::kExpected) return found != Found::kFault;
  const bool walked =
      ctx.for_each_field(value, [&](std::string_view name, ondemand::value& field_value) {
      bool ok = true;
      if (name == "geo") {
        FieldScope field(ctx, name);
        out.geo_count = 0;
        ok = read_ids(ctx, field_value, geo, out.geo_ids, out.geo_count);
      } else if (name == "location") {
        FieldScope field(ctx, name);
        out.location_count = 0;
        ok = read_location(ctx, field_value, out);
      } else if (name == "custom") {
        FieldScope field(ctx, name);
        out.custom_count = 0;
        out.custom_item_count = 0;
        out.custom_json = {};
        ok = read_custom(ctx, field_value, out);
      } else if (name == "destination" && ctx.options.destination_understood) {
        FieldScope field(ctx, name);
        out.destination_count = 0;
        ok = read_ids(ctx, field_value, destination, out.destination_ids, out.destination_count);
      } else {
        ok = ctx.skip(field_value);  // unknown, or `destination` in a version without it
      }
      return ok;
      });
  return walked;
}

}  // namespace decision::request
