// One placement request item: key, count, advertiserId, templateId, format, targeting.
#include "decision/request/json_number.h"
#include "decision/request/public_id.h"
#include "decision/request/read_context.h"
#include "http/error_codes.h"

namespace decision::request {
namespace {

using http::error_code::kInvalidPlacements;
using http::error_code::kInvalidPlacementKey;
using http::error_code::kInvalidCount;
using http::error_code::kInvalidAdvertiserId;
using http::error_code::kInvalidTemplateId;
using http::error_code::kInvalidFormat;

// present: a key was given (null counts as absent).
bool read_key(ReadContext& ctx, ondemand::value& value, std::string_view& out, bool& present) {
  static_assert(kMaxPlacementKeyBytes == 256, "update the message");
  const Found found =
      ctx.expect(value, ondemand::json_type::string, kInvalidPlacementKey, "key must be a non-empty string");
  if (found == Found::kFault) return false;
  present = found != Found::kNull;
  if (found != Found::kExpected) return true;
  std::string_view key;
  if (!ctx.get_string(value, key)) return false;
  if (key.empty()) {
    ctx.error(kInvalidPlacementKey, "key must be a non-empty string");
  } else if (key.size() > kMaxPlacementKeyBytes) {
    ctx.error(kInvalidPlacementKey, "key must be at most 256 bytes");
  } else {
    out = key;
  }
  return true;
}

// An integer value, however written: 2, 2.0 and 2e0 are the same JSON number (as JSON
// Schema's "integer" has it); 2.5 and "2" are not integers.
bool read_count(ReadContext& ctx, ondemand::value& value, uint32_t& out) {
  static_assert(kCountMin == 1 && kCountMax == 10, "update the message");
  constexpr std::string_view kMessage = "count must be an integer from 1 to 10";
  const Found found = ctx.expect(value, ondemand::json_type::number, kInvalidCount, kMessage);
  if (found != Found::kExpected) return found != Found::kFault;  // null: the default
  std::string_view token;
  if (!ctx.number_token(value, token)) return false;
  const std::optional<int64_t> count = integral_value(token);
  if (!count || *count < kCountMin || *count > kCountMax) {
    ctx.error(kInvalidCount, kMessage);
  } else {
    out = static_cast<uint32_t>(*count);
  }
  return true;
}

bool read_public_id(ReadContext& ctx, ondemand::value& value, std::string_view prefix, int code,
                    std::string_view message, std::optional<uint64_t>& out) {
  const Found found = ctx.expect(value, ondemand::json_type::string, code, message);
  if (found != Found::kExpected) return found != Found::kFault;
  std::string_view text;
  if (!ctx.get_string(value, text)) return false;
  out = parse_public_id(text, prefix);
  if (!out) ctx.error(code, message);
  return true;
}

bool read_format(ReadContext& ctx, ondemand::value& value, std::optional<AdFormat>& out) {
  constexpr std::string_view kMessage = "format must be native or video";
  const Found found = ctx.expect(value, ondemand::json_type::string, kInvalidFormat, kMessage);
  if (found != Found::kExpected) return found != Found::kFault;
  std::string_view text;
  if (!ctx.get_string(value, text)) return false;
  if (text == "native") {
    out = AdFormat::kNative;
  } else if (text == "video") {
    out = AdFormat::kVideo;
  } else {
    ctx.error(kInvalidFormat, kMessage);
  }
  return true;
}

}  // namespace

bool read_placement(ReadContext& ctx, ondemand::value& value, PlacementRequest& out) {
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind != ondemand::json_type::object) {
    ctx.error(kInvalidPlacements, "placement must be an object");
    return ctx.skip(value);
  }
  bool key_present = false;
  const bool walked =
      ctx.for_each_field(value, [&](std::string_view name, ondemand::value& field_value) {
      bool ok = true;
      if (name == "key") {
        FieldScope field(ctx, name);
        out.key = {};
        key_present = false;
        ok = read_key(ctx, field_value, out.key, key_present);
      } else if (name == "count") {
        FieldScope field(ctx, name);
        out.count = kCountDefault;
        ok = read_count(ctx, field_value, out.count);
      } else if (name == "advertiserId") {
        FieldScope field(ctx, name);
        out.advertiser_id.reset();
        ok = read_public_id(ctx, field_value, "advertiser_", kInvalidAdvertiserId,
                            "advertiserId must be of the form advertiser_<id>", out.advertiser_id);
      } else if (name == "templateId") {
        FieldScope field(ctx, name);
        out.template_id.reset();
        ok = read_public_id(ctx, field_value, "template_", kInvalidTemplateId,
                            "templateId must be of the form template_<id>", out.template_id);
      } else if (name == "format" && ctx.options.format_understood) {
        FieldScope field(ctx, name);
        out.format.reset();
        ok = read_format(ctx, field_value, out.format);
      } else if (name == "targeting") {
        FieldScope field(ctx, name);
        out.targeting.clear();
        ok = read_targeting(ctx, field_value, out.targeting);
      } else {
        ok = ctx.skip(field_value);  // unknown, or `format` in a version without it
      }
      return ok;
      });
  if (!walked) return false;
  if (!key_present) ctx.error_at("key", kInvalidPlacementKey, "key is required");
  return true;
}

}  // namespace decision::request
