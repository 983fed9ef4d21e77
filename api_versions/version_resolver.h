#pragma once
// The version check of every request (docs/versions-and-languages.md), run before anything else:
// X-Decision-Version on the decision endpoint, X-Tracking-Version on the tracking endpoint,
// same rules. Everything a reply carries (error bodies, the Sunset date, warning 20002) is
// written once per UTC day; resolving a header value compares ten bytes, binary-searches the
// table and returns finished text, allocating nothing.
//
// One resolver per endpoint per core: it caches per day, so it is not shared across threads.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/time/civil_time.h"
#include "api_versions/phase.h"
#include "api_versions/version_features.h"
#include "api_versions/version_table.h"
#include "http/request.h"
#include "http/response.h"
#include "runtime/check.h"

namespace api_versions {

inline constexpr std::string_view kDecisionVersionHeader = "X-Decision-Version";
inline constexpr std::string_view kTrackingVersionHeader = "X-Tracking-Version";
inline constexpr std::string_view kDeprecatedHeader = "X-API-Deprecated";
inline constexpr std::string_view kSunsetHeader = "Sunset";

struct Resolution {
  int status = 200;    // 200 served; 400 (code 10042) or 410 (code 10043)
  int error_code = 0;  // 0 when served
  // Served: the version used. 410: the sunset version. 400: null.
  const VersionEntry* entry = nullptr;
  Phase phase = Phase::kActive;  // of entry, today
  // Maintenance or deprecated: the reply carries "X-API-Deprecated: true".
  bool deprecated = false;
  // In maintenance or deprecated phase, or in any phase from 90 days before the sunset
  // (sunset_notice.h): the Sunset header's IMF-fixdate (the sunset day at 00:00:00 GMT).
  // Empty: no Sunset header.
  std::string_view sunset_http_date;
  std::string_view warning;           // warning 20002 item (JSON), empty when none
  std::string_view error_body;        // the whole error envelope when not served

  bool served() const { return status == 200; }
  // Served only: a served resolution always names its entry.
  std::string_view version() const {
    DECISIOND_CHECK(served() && entry != nullptr);
    return entry->version_text;
  }
  const VersionFeatures& features() const {
    DECISIOND_CHECK(served() && entry != nullptr);
    return entry->features;
  }
};

class VersionResolver {
 public:
  // table must outlive the resolver. header_name: kDecisionVersionHeader or
  // kTrackingVersionHeader; named in the 400 message and echoed with the version served.
  VersionResolver(const VersionTable& table, std::string_view header_name);
  VersionResolver(const VersionResolver&) = delete;  // results point into the cache
  VersionResolver& operator=(const VersionResolver&) = delete;

  // header: the header's value, nullopt when the request has none (an empty value is
  // malformed). The result, and the text it points to, stay valid until resolve() is called
  // with another day. Allocates nothing when today is the day of the previous call.
  //
  // No header: the oldest version that is not sunset (nor unreleased). When every version
  // is sunset: the 410 of the newest one, whose details list no active version, so the
  // client learns the API it is calling is gone rather than a puzzling 400 about a header it
  // never sent. When no version is released yet: the 400 with empty active_versions.
  const Resolution& resolve(std::optional<std::string_view> header, absl::CivilDay today);

  // The request's own version header, on the UTC day of now_s. The header given twice is
  // two versions, not an exact value (docs/versions-and-languages.md): the malformed-header
  // answer, rather than whichever came first.
  const Resolution& resolve_request(const http::Request& request, int64_t now_s);

  // A served reply's headers: "<header name>: <version>", in maintenance or deprecated
  // phase "X-API-Deprecated: true", and "Sunset: <date>" in those phases or once a sunset
  // notice is due.
  void add_reply_headers(const Resolution& resolution, http::Response& response) const;
  // An unserved resolution's reply: status, JSON content type and the envelope.
  static void write_error(const Resolution& resolution, http::Response& response);

  std::string_view header_name() const { return header_name_; }

 private:
  struct DayEntry {
    Resolution resolution;
    std::string warning;
    std::string error_body;
  };

  void refresh(absl::CivilDay today);

  const VersionTable& table_;
  const std::string header_name_;
  const std::vector<std::string> sunset_http_dates_;  // per entry; empty without sunset

  // The cache of one day.
  bool has_day_ = false;
  absl::CivilDay day_;
  std::vector<DayEntry> by_entry_;  // parallel to table_.entries()
  std::string bad_version_body_;
  Resolution bad_version_;
  Resolution no_header_;
};

}  // namespace api_versions
