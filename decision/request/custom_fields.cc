// placements[].targeting.custom: an object of strings, numbers, booleans or arrays of
// those (docs/decision-request.md), read into a flat list for the CEL `custom` variable. Nested
// objects, nulls and arrays inside arrays are refused: CEL expressions over them would
// fail at evaluation anyway, and a client learns it at once.
#include <charconv>

#include "decision/request/read_context.h"
#include "http/error_codes.h"

namespace decision::request {
namespace {

using http::error_code::kInvalidCustomTargeting;
constexpr std::string_view kBadValue =
    "custom values must be strings, numbers, booleans or arrays of those";
constexpr std::string_view kBadItem = "custom array items must be strings, numbers or booleans";
constexpr std::string_view kNumberRange = "custom numbers must fit a double";

// Whether the literal in out.text is an integer of int64 or uint64 range, worked out once
// here rather than at every CEL look-up of it.
void classify_number(CustomValue& out) {
  out.number_kind = CustomNumber::kDouble;
  const std::string_view text = out.text;
  if (text.find_first_of(".eE") != std::string_view::npos) return;
  const char* end = text.data() + text.size();
  if (std::from_chars(text.data(), end, out.int_number).ec == std::errc()) {
    out.number_kind = CustomNumber::kInt;
  } else if (std::from_chars(text.data(), end, out.uint_number).ec == std::errc()) {
    out.number_kind = CustomNumber::kUint;
  }
}

// A string, number or boolean into out. False only on a fault; `scalar` false for any
// other kind (left unread).
bool read_scalar(ReadContext& ctx, ondemand::value& value, ondemand::json_type kind,
                 CustomValue& out, bool& scalar) {
  scalar = true;
  switch (kind) {
    case ondemand::json_type::string:
      out.kind = CustomKind::kString;
      return ctx.get_string(value, out.text);
    case ondemand::json_type::number: {
      out.kind = CustomKind::kNumber;
      bool in_range = false;
      // The literal first: reading the number moves the iterator past it.
      if (!ctx.number_token(value, out.text)) return false;
      if (!ctx.get_double(value, out.number, in_range)) return false;
      if (!in_range) ctx.error(kInvalidCustomTargeting, kNumberRange);
      classify_number(out);
      return true;
    }
    case ondemand::json_type::boolean:
      out.kind = CustomKind::kBool;
      if (!ctx.get_bool(value, out.boolean)) return false;
      out.text = out.boolean ? "true" : "false";
      return true;
    default:
      scalar = false;
      return true;
  }
}

bool read_array(ReadContext& ctx, ondemand::value& value, Targeting& targeting,
                CustomEntry& entry) {
  static_assert(kMaxCustomArrayItems == 128, "update the message");
  const char* start = value.raw_json_token().data();
  entry.value.kind = CustomKind::kArray;
  entry.first_item = static_cast<uint16_t>(targeting.custom_item_count);
  entry.item_count = 0;
  bool over_limit = false;
  // Every item is read: the bound is on the items of all arrays together.
  const bool walked = ctx.for_each_item(value, [&](uint32_t index, ondemand::value& item) {
    ondemand::json_type kind;
    if (!ctx.type(item, kind)) return false;
    CustomValue scratch;
    const bool room = targeting.custom_item_count < kMaxCustomArrayItems;
    CustomValue& slot = room ? targeting.custom_items[targeting.custom_item_count] : scratch;
    bool scalar = false;
    {
      PathScope scope(ctx.path, index);
      if (!read_scalar(ctx, item, kind, slot, scalar)) return false;
      if (!scalar) {
        ctx.error(kInvalidCustomTargeting, kBadItem);
        if (!ctx.skip(item)) return false;
      }
    }
    if (scalar && room) {
      ++targeting.custom_item_count;
      ++entry.item_count;
    } else if (scalar) {
      over_limit = true;
    }
    return true;
  });
  if (!walked) return false;
  if (over_limit) {
    ++ctx.counters.custom_items_over_limit;
    ctx.error(kInvalidCustomTargeting, "custom arrays must have at most 128 items in all");
  }
  return ctx.raw_since(start, entry.value.text);
}

bool read_value(ReadContext& ctx, ondemand::value& value, Targeting& targeting,
                CustomEntry& entry) {
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind == ondemand::json_type::array) return read_array(ctx, value, targeting, entry);
  bool scalar = false;
  if (!read_scalar(ctx, value, kind, entry.value, scalar)) return false;
  if (!scalar) {
    ctx.error(kInvalidCustomTargeting, kBadValue);
    return ctx.skip(value);
  }
  return true;
}

}  // namespace

bool read_custom(ReadContext& ctx, ondemand::value& value, Targeting& out) {
  static_assert(kMaxCustomKeys == 64, "update the message");
  const Found found =
      ctx.expect(value, ondemand::json_type::object, kInvalidCustomTargeting, "custom must be an object");
  if (found != Found::kExpected) return found != Found::kFault;
  const char* start = value.raw_json_token().data();
  bool over_limit = false;
  const bool walked =
      ctx.for_each_field(value, [&](std::string_view key, ondemand::value& field_value) {
      PathScope scope(ctx.path, key);
      // A key given twice keeps its first position and its last value.
      CustomEntry* entry = nullptr;
      for (uint32_t i = 0; i < out.custom_count; ++i) {
        if (out.custom_entries[i].key == key) entry = &out.custom_entries[i];
      }
      if (entry != nullptr) {
        ctx.forget_errors();
      } else if (out.custom_count < kMaxCustomKeys) {
        entry = &out.custom_entries[out.custom_count++];
      } else {
        over_limit = true;
        if (!ctx.skip(field_value)) return false;
        return true;
      }
      *entry = CustomEntry{};
      entry->key = key;
      if (!read_value(ctx, field_value, out, *entry)) return false;
      return true;
      });
  if (!walked) return false;
  if (over_limit) {
    ++ctx.counters.custom_keys_over_limit;
    ctx.error(kInvalidCustomTargeting, "custom must have at most 64 keys");
  }
  return ctx.raw_since(start, out.custom_json);
}

}  // namespace decision::request
