#include "api_versions/version_errors.h"

#include "absl/strings/str_cat.h"
#include "api_versions/calendar_day.h"
#include "http/error_codes.h"
#include "http/json_writer.h"
#include "runtime/absl_view.h"
#include "runtime/check.h"

namespace api_versions {
namespace {

using runtime::av;

void write_versions(http::JsonWriter& json, std::span<const std::string_view> versions) {
  json.begin_array();
  for (std::string_view version : versions) json.string(version);
  json.end_array();
}

// {"success":false,"data":null,"errors":[{"code","message","details":{ <details> }}],
//  "warnings":null}; details_body writes the members of details.
template <typename WriteDetails>
void append_envelope(std::string& out, int code, std::string_view message,
                     WriteDetails details_body) {
  http::JsonWriter json(out);
  json.begin_object().key("success").boolean(false).key("data").null();
  json.key("errors").begin_array();
  json.begin_object().key("code").number(code).key("message").string(message);
  json.key("details").begin_object();
  details_body(json);
  json.end_object().end_object();
  json.end_array().key("warnings").null().end_object();
}

}  // namespace

void append_bad_version_error(std::string& out, std::string_view header_name,
                              std::span<const std::string_view> active_versions) {
  const std::string message =
      absl::StrCat(av(header_name), " must be exactly one of active_versions (YYYY-MM-DD)");
  append_envelope(out, http::error_code::kBadVersion, message, [&](http::JsonWriter& json) {
    json.key("active_versions");
    write_versions(json, active_versions);
  });
}

void append_sunset_version_error(std::string& out, const VersionEntry& entry,
                                 std::span<const std::string_view> active_versions) {
  DECISIOND_CHECK(entry.sunset.has_value());
  const std::string sunset = day_text(*entry.sunset);
  const std::string message = absl::StrCat("API version ", entry.version_text, " was sunset on ",
                                           sunset, "; use one of active_versions");
  append_envelope(out, http::error_code::kSunsetVersion, message, [&](http::JsonWriter& json) {
    json.key("deprecated_version").string(entry.version_text);
    json.key("active_versions");
    write_versions(json, active_versions);
    if (!entry.migration_guide.empty()) json.key("migration_guide").string(entry.migration_guide);
    json.key("sunset_date").string(sunset);
  });
}

void append_version_warning(std::string& out, const VersionEntry& entry, Phase phase, SunsetNotice notice) {
  std::string message = absl::StrCat("API version ", entry.version_text);
  const bool deprecated = phase == Phase::kMaintenance || phase == Phase::kDeprecated;
  // Warned about: a deprecated phase, or a notice due, which only a sunset date makes.
  DECISIOND_CHECK(deprecated || notice.due());
  DECISIOND_CHECK(!notice.due() || entry.sunset.has_value());
  if (deprecated) absl::StrAppend(&message, " is ", phase == Phase::kMaintenance ? "in maintenance" : "deprecated", ";");
  if (entry.sunset) {
    absl::StrAppend(&message, deprecated ? " it" : "", " will be sunset on ", day_text(*entry.sunset));
    if (notice.due()) absl::StrAppend(&message, ", in ", notice.days_left, notice.days_left == 1 ? " day" : " days");
  } else {
    absl::StrAppend(&message, " migrate to a newer version");
  }
  http::JsonWriter json(out);
  json.begin_object().key("code").number(http::error_code::kVersionDeprecated).key("message").string(message);
  json.key("details").begin_object();
  if (entry.sunset) json.key("sunset_date").string(day_text(*entry.sunset));
  if (notice.due()) json.key("days_left").number(notice.notice);
  if (!entry.migration_guide.empty()) json.key("migration_guide").string(entry.migration_guide);
  json.end_object().end_object();
}

}  // namespace api_versions
