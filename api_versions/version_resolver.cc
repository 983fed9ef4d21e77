#include "api_versions/version_resolver.h"

#include "api_versions/calendar_day.h"
#include "api_versions/version_errors.h"
#include "http/error_codes.h"
#include "http/http_date.h"
#include "runtime/check.h"

namespace api_versions {
namespace {

constexpr size_t kHttpDateLength = 29;  // "Wed, 01 Jul 2026 00:00:00 GMT"

std::vector<std::string> sunset_http_dates(const VersionTable& table) {
  std::vector<std::string> dates;
  for (const VersionEntry& entry : table.entries()) {
    std::string text;
    if (entry.sunset) {
      char buffer[kHttpDateLength];
      http::HttpDate::format(unix_seconds_of_day(*entry.sunset), buffer);
      text.assign(buffer, kHttpDateLength);
    }
    dates.push_back(std::move(text));
  }
  return dates;
}

}  // namespace

VersionResolver::VersionResolver(const VersionTable& table, std::string_view header_name)
    : table_(table), header_name_(header_name), sunset_http_dates_(sunset_http_dates(table)) {
  DECISIOND_CHECK(!header_name_.empty());
}

void VersionResolver::refresh(absl::CivilDay today) {
  const auto entries = table_.entries();
  // The per-entry texts were made from this table; an immutable one never outgrows them.
  DECISIOND_CHECK(sunset_http_dates_.size() == entries.size());
  std::vector<std::string_view> active;  // ascending, as the table is
  for (const VersionEntry& entry : entries) {
    if (is_served(phase_at(entry, today))) active.push_back(entry.version_text);
  }

  // Sized once, then filled in place: the views below point into these strings.
  by_entry_.clear();
  by_entry_.resize(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    const VersionEntry& entry = entries[i];
    DayEntry& day = by_entry_[i];
    Resolution& r = day.resolution;
    r.entry = &entry;
    r.phase = phase_at(entry, today);
    const bool deprecated = r.phase == Phase::kMaintenance || r.phase == Phase::kDeprecated;
    const SunsetNotice notice = sunset_notice_at(entry, today);
    if (deprecated || (r.phase == Phase::kActive && notice.due())) {
      // A Sunset header names the date: the table makes every deprecated version carry one.
      DECISIOND_CHECK(!sunset_http_dates_[i].empty());
      r.deprecated = deprecated;
      r.sunset_http_date = sunset_http_dates_[i];
      append_version_warning(day.warning, entry, r.phase, notice);
      r.warning = day.warning;
    } else if (r.phase == Phase::kSunset) {
      r.status = kSunsetVersionStatus;
      r.error_code = http::error_code::kSunsetVersion;
      append_sunset_version_error(day.error_body, entry, active);
      r.error_body = day.error_body;
    } else if (r.phase == Phase::kUnreleased) {
      r.entry = nullptr;  // answered as an unknown version; see bad_version_
    }
  }

  bad_version_body_.clear();
  append_bad_version_error(bad_version_body_, header_name_, active);
  bad_version_ = Resolution{};
  bad_version_.status = kBadVersionStatus;
  bad_version_.error_code = http::error_code::kBadVersion;
  bad_version_.error_body = bad_version_body_;

  no_header_ = bad_version_;
  const DayEntry* newest_sunset = nullptr;
  for (const DayEntry& day : by_entry_) {
    if (day.resolution.entry == nullptr) continue;
    if (is_served(day.resolution.phase)) {
      no_header_ = day.resolution;
      newest_sunset = nullptr;
      break;
    }
    if (day.resolution.phase == Phase::kSunset) newest_sunset = &day;
  }
  if (newest_sunset != nullptr) no_header_ = newest_sunset->resolution;

  day_ = today;
  has_day_ = true;
}

const Resolution& VersionResolver::resolve_request(const http::Request& request, int64_t now_s) {
  // What a repeated header's values amount to when joined (RFC 9110 section 5.3): a list,
  // never one exact date.
  constexpr std::string_view kRepeatedHeaderValue = "(repeated header)";
  int64_t days = now_s / 86400;
  if (now_s % 86400 < 0) --days;  // floor, for clocks before 1970
  const std::optional<std::string_view> header = request.has_repeated_header(header_name_)
                                                     ? std::optional<std::string_view>(kRepeatedHeaderValue)
                                                     : request.find_header(header_name_);
  return resolve(header, absl::CivilDay(1970, 1, 1) + days);
}

const Resolution& VersionResolver::resolve(std::optional<std::string_view> header,
                                           absl::CivilDay today) {
  if (!has_day_ || today != day_) refresh(today);
  if (!header) return no_header_;
  const std::optional<absl::CivilDay> version = parse_day(*header);
  if (!version) return bad_version_;
  const VersionEntry* entry = table_.find(*version);
  if (entry == nullptr) return bad_version_;
  const size_t index = static_cast<size_t>(entry - table_.entries().data());
  DECISIOND_CHECK(index < by_entry_.size());
  const Resolution& known = by_entry_[index].resolution;
  if (known.entry == nullptr) return bad_version_;  // not released yet
  return known;
}

void VersionResolver::add_reply_headers(const Resolution& resolution,
                                        http::Response& response) const {
  if (!resolution.served()) return;
  response.add_header(header_name_, resolution.version());
  if (resolution.deprecated) response.add_header(kDeprecatedHeader, "true");
  if (!resolution.sunset_http_date.empty()) response.add_header(kSunsetHeader, resolution.sunset_http_date);
}

void VersionResolver::write_error(const Resolution& resolution, http::Response& response) {
  DECISIOND_CHECK(!resolution.served() && !resolution.error_body.empty());
  response.set_json(resolution.status);
  response.body().assign(resolution.error_body);
}

}  // namespace api_versions
