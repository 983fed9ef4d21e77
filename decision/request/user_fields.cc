// user: id, ip, timezone, consent.gdpr. Every fault of the user object is 10020
// (docs/errors.md), at the path of the field at fault.
#include "decision/request/ip_address.h"
#include "decision/request/read_context.h"
#include "decision/request/tcf_consent.h"
#include "http/error_codes.h"

namespace decision::request {
namespace {

using http::error_code::kInvalidUser;

// A string member checked by `valid`; anything else is the error `message`.
template <typename Valid>
bool read_checked_string(ReadContext& ctx, ondemand::value& value, std::string_view message,
                         Valid valid) {
  const Found found = ctx.expect(value, ondemand::json_type::string, kInvalidUser, message);
  if (found != Found::kExpected) return found != Found::kFault;
  std::string_view text;
  if (!ctx.get_string(value, text)) return false;
  if (!valid(text)) ctx.error(kInvalidUser, message);
  return true;
}

// The 10020 message for a string that is not a TC string. Messages outlive the error list,
// so each fault has its own constant.
std::string_view consent_string_message(TcfFault fault) {
  switch (fault) {
    case TcfFault::kEmptySegment:
      return "gdpr must be true, false or a TCF v2 consent string: a segment is empty";
    case TcfFault::kPadding:
      return "gdpr must be true, false or a TCF v2 consent string: '=' padding is not allowed";
    case TcfFault::kNotBase64url:
      return "gdpr must be true, false or a TCF v2 consent string: a character is not "
             "base64url (A-Z a-z 0-9 - _)";
    case TcfFault::kVersion1:
      return "gdpr must be true, false or a TCF v2 consent string: version 1, expected 2";
    case TcfFault::kUnknownVersion:
      return "gdpr must be true, false or a TCF v2 consent string: version is not 2";
    case TcfFault::kCoreTruncated:
      return "gdpr must be true, false or a TCF v2 consent string: the core segment ends "
             "inside its fields";
    case TcfFault::kLanguageNotLetters:
      return "gdpr must be true, false or a TCF v2 consent string: consent language is not "
             "two letters";
    case TcfFault::kTrailingBits:
      return "gdpr must be true, false or a TCF v2 consent string: non-zero bits after the "
             "core fields";
    case TcfFault::kUnknownSegmentType:
      return "gdpr must be true, false or a TCF v2 consent string: segment type is not 1, 2 "
             "or 3";
    case TcfFault::kNone:
      break;
  }
  return "gdpr must be true, false or a TCF v2 consent string";
}

bool read_gdpr(ReadContext& ctx, ondemand::value& value, User& out) {
  static_assert(kMaxConsentStringBytes == 8 * 1024, "update the message");
  constexpr std::string_view kMessage = "gdpr must be true, false or a TCF v2 consent string";
  ondemand::json_type kind;
  if (!ctx.type(value, kind)) return false;
  if (kind == ondemand::json_type::null) return ctx.check_null(value);  // as if absent
  if (kind == ondemand::json_type::boolean) {
    bool granted = false;
    if (!ctx.get_bool(value, granted)) return false;
    out.gdpr = granted ? GdprConsent::kGranted : GdprConsent::kRefused;
    return true;
  }
  if (kind != ondemand::json_type::string) {
    ctx.error(kInvalidUser, kMessage);
    return ctx.skip(value);
  }
  std::string_view text;
  if (!ctx.get_string(value, text)) return false;
  if (text.size() > kMaxConsentStringBytes) {
    ctx.error(kInvalidUser,
              "gdpr must be true, false or a TCF v2 consent string: longer than 8 KiB");
    return true;
  }
  TcfFault fault = TcfFault::kNone;
  const std::optional<TcfConsent> consent = decode_tcf_consent(text, fault);
  if (!consent) {
    ctx.error(kInvalidUser, consent_string_message(fault));
    return true;
  }
  out.gdpr = GdprConsent::kConsentString;
  out.consent_string = text;
  out.consent_string_purpose1 = consent->purpose1_consented;
  return true;
}

// consent and its gdpr both hold the user's consent: either given again starts it over.
void clear_consent(User& out) {
  out.gdpr = GdprConsent::kAbsent;
  out.consent_string = {};
  out.consent_string_purpose1 = false;
}

bool read_consent(ReadContext& ctx, ondemand::value& value, User& out) {
  const Found found =
      ctx.expect(value, ondemand::json_type::object, kInvalidUser, "consent must be an object");
  if (found != Found::kExpected) return found != Found::kFault;
  return ctx.for_each_field(value, [&](std::string_view name, ondemand::value& field_value) {
    if (name != "gdpr") return ctx.skip(field_value);
    FieldScope field(ctx, name);
    clear_consent(out);
    return read_gdpr(ctx, field_value, out);
  });
}

}  // namespace

bool read_user(ReadContext& ctx, ondemand::value& value, User& out, bool& present) {
  static_assert(kMaxUserIdBytes == 256, "update the message");
  const Found found =
      ctx.expect(value, ondemand::json_type::object, kInvalidUser, "user must be an object");
  if (found == Found::kFault) return false;
  present = found != Found::kNull;
  if (found != Found::kExpected) return true;
  const bool walked =
      ctx.for_each_field(value, [&](std::string_view name, ondemand::value& field_value) {
      bool ok = true;
      if (name == "id") {
        FieldScope field(ctx, name);
        out.id.reset();
        ok = read_checked_string(ctx, field_value, "id must be a string of 1 to 256 bytes",
                                 [&out](std::string_view text) {
                                   if (text.empty() || text.size() > kMaxUserIdBytes) return false;
                                   out.id = text;
                                   return true;
                                 });
      } else if (name == "ip") {
        FieldScope field(ctx, name);
        out.ip = IpAddress{};
        ok = read_checked_string(ctx, field_value, "ip must be an IPv4 or IPv6 address",
                                 [&out](std::string_view text) {
                                   return parse_ip_address(text, out.ip);
                                 });
      } else if (name == "timezone") {
        FieldScope field(ctx, name);
        out.timezone_name = {};
        out.time_zone = absl::UTCTimeZone();
        ok = read_checked_string(ctx, field_value, "timezone must be an IANA time zone name",
                                 [&ctx, &out](std::string_view text) {
                                   const std::optional<absl::TimeZone> zone =
                                       ctx.time_zones.find(text);
                                   if (!zone) return false;
                                   out.timezone_name = text;
                                   out.time_zone = *zone;
                                   return true;
                                 });
      } else if (name == "consent") {
        FieldScope field(ctx, name);
        clear_consent(out);
        ok = read_consent(ctx, field_value, out);
      } else {
        ok = ctx.skip(field_value);
      }
      return ok;
      });
  return walked;
}

}  // namespace decision::request
