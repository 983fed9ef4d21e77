// The version header of a request (docs/versions-and-languages.md): what is served, what is
// refused, and what a served reply carries.
#include "api_versions/version_resolver.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <optional>
#include <string>
#include <vector>

#include "api_versions/version_errors.h"
#include "http/response.h"
#include "tests/support/allocation_count.h"
#include "tests/unit/api_versions/version_fixture.h"

namespace api_versions {
namespace {

using testing::day;
using testing::kScheduledTable;
using testing::table_from;

// active_versions of an error envelope, read back with simdjson.
std::vector<std::string> active_versions_of(std::string_view body) {
  simdjson::dom::parser parser;
  simdjson::dom::array versions;
  std::vector<std::string> out;
  if (parser.parse(simdjson::padded_string(body))["errors"].at(0)["details"]["active_versions"]
          .get_array()
          .get(versions)) {
    ADD_FAILURE() << "no active_versions in " << body;
    return out;
  }
  for (simdjson::dom::element v : versions) out.emplace_back(std::string_view(v.get_string()));
  return out;
}

class VersionResolverTest : public ::testing::Test {
 protected:
  const Resolution& resolve(std::optional<std::string_view> header,
                            std::string_view today = "2025-12-01") {
    return resolver_.resolve(header, day(today));
  }

  void expect_bad_version(std::string_view header) {
    const Resolution& r = resolve(header);
    EXPECT_FALSE(r.served()) << '"' << header << '"';
    EXPECT_EQ(r.status, 400) << '"' << header << '"';
    EXPECT_EQ(r.error_code, 10042) << '"' << header << '"';
    EXPECT_EQ(r.entry, nullptr);
    EXPECT_EQ(active_versions_of(r.error_body),
              (std::vector<std::string>{"2025-01-01", "2025-11-01"}));
  }

  VersionTable table_ = table_from(kScheduledTable);
  VersionResolver resolver_{table_, kDecisionVersionHeader};
};

TEST_F(VersionResolverTest, KnownActiveVersionIsServed) {
  const Resolution& r = resolve("2025-11-01");
  ASSERT_TRUE(r.served());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.version(), "2025-11-01");
  EXPECT_EQ(r.phase, Phase::kActive);
  EXPECT_FALSE(r.deprecated);
  EXPECT_TRUE(r.warning.empty());
  EXPECT_TRUE(r.sunset_http_date.empty());
}

TEST_F(VersionResolverTest, MissingHeaderPicksTheOldestVersion) {
  const Resolution& r = resolve(std::nullopt);
  ASSERT_TRUE(r.served());
  EXPECT_EQ(r.version(), "2025-01-01");
}

TEST_F(VersionResolverTest, MissingHeaderPicksTheOldestVersionStillServedInMaintenance) {
  const Resolution& r = resolve(std::nullopt, "2026-02-01");
  ASSERT_TRUE(r.served());
  EXPECT_EQ(r.version(), "2025-01-01");
  EXPECT_TRUE(r.deprecated);
}

TEST_F(VersionResolverTest, MissingHeaderSkipsSunsetVersions) {
  const Resolution& r = resolve(std::nullopt, "2026-07-01");
  ASSERT_TRUE(r.served());
  EXPECT_EQ(r.version(), "2025-11-01");
}

TEST_F(VersionResolverTest, MissingHeaderSkipsUnreleasedVersions) {
  const VersionTable table = table_from(R"([
    {"version": "2025-01-01", "release": "2025-01-01", "sunset": "2026-01-01"},
    {"version": "2025-11-01", "release": "2026-02-01"},
    {"version": "2026-05-01", "release": "2026-05-01"}])");
  VersionResolver resolver(table, kDecisionVersionHeader);
  const Resolution& r = resolver.resolve(std::nullopt, day("2026-06-01"));
  ASSERT_TRUE(r.served());
  EXPECT_EQ(r.version(), "2025-11-01");
  // Between 2025-01-01's sunset and 2025-11-01's release nothing is served.
  EXPECT_EQ(resolver.resolve(std::nullopt, day("2026-01-15")).status, 410);
}

TEST_F(VersionResolverTest, MissingHeaderWhenEveryVersionIsSunsetIsGoneWithTheNewest) {
  const VersionTable table = table_from(R"([
    {"version": "2025-01-01", "release": "2025-01-01", "sunset": "2026-07-01"},
    {"version": "2025-11-01", "release": "2025-11-01", "sunset": "2027-05-01"}])");
  VersionResolver resolver(table, kDecisionVersionHeader);
  const Resolution& r = resolver.resolve(std::nullopt, day("2027-05-01"));
  EXPECT_EQ(r.status, 410);
  EXPECT_EQ(r.error_code, 10043);
  ASSERT_NE(r.entry, nullptr);
  EXPECT_EQ(r.entry->version_text, "2025-11-01");
  EXPECT_EQ(active_versions_of(r.error_body), std::vector<std::string>{});
}

TEST_F(VersionResolverTest, MissingHeaderBeforeAnyReleaseIsBadVersionWithNoActiveVersions) {
  const VersionTable table = table_from(R"([{"version": "2030-01-01", "release": "2030-01-01"}])");
  VersionResolver resolver(table, kDecisionVersionHeader);
  const Resolution& r = resolver.resolve(std::nullopt, day("2029-12-31"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.error_code, 10042);
  EXPECT_EQ(active_versions_of(r.error_body), std::vector<std::string>{});
}

TEST_F(VersionResolverTest, SingleDigitMonthIsBadVersion) { expect_bad_version("2025-1-01"); }
TEST_F(VersionResolverTest, LeadingSpaceIsBadVersion) { expect_bad_version(" 2025-01-01"); }
TEST_F(VersionResolverTest, TrailingSpaceIsBadVersion) { expect_bad_version("2025-01-01 "); }
TEST_F(VersionResolverTest, ImpossibleDateIsBadVersion) { expect_bad_version("2025-02-30"); }
TEST_F(VersionResolverTest, RangeIsBadVersion) { expect_bad_version(">=2025-01-01"); }
TEST_F(VersionResolverTest, LatestIsBadVersion) { expect_bad_version("latest"); }
TEST_F(VersionResolverTest, EmptyValueIsBadVersion) { expect_bad_version(""); }
TEST_F(VersionResolverTest, DateTimeIsBadVersion) { expect_bad_version("2025-01-01T00:00:00Z"); }
TEST_F(VersionResolverTest, ValidDateThatIsNoVersionIsBadVersion) {
  expect_bad_version("2025-06-01");
}

TEST_F(VersionResolverTest, UnreleasedVersionIsBadVersionAndNotActive) {
  const VersionTable table = table_from(R"([
    {"version": "2025-01-01", "release": "2025-01-01"},
    {"version": "2026-05-01", "release": "2026-05-01"}])");
  VersionResolver resolver(table, kDecisionVersionHeader);
  const Resolution& before = resolver.resolve("2026-05-01", day("2026-04-30"));
  EXPECT_EQ(before.status, 400);
  EXPECT_EQ(active_versions_of(before.error_body), std::vector<std::string>{"2025-01-01"});
  EXPECT_TRUE(resolver.resolve("2026-05-01", day("2026-05-01")).served());
}

TEST_F(VersionResolverTest, BadVersionMessageNamesTheEndpointsHeader) {
  VersionResolver tracking(table_, kTrackingVersionHeader);
  const Resolution& r = tracking.resolve("latest", day("2025-12-01"));
  EXPECT_NE(r.error_body.find("X-Tracking-Version"), std::string_view::npos) << r.error_body;
  EXPECT_NE(resolve("latest").error_body.find("X-Decision-Version"), std::string_view::npos);
}

TEST_F(VersionResolverTest, SunsetVersionIsGone) {
  const Resolution& r = resolve("2025-01-01", "2026-07-01");
  EXPECT_FALSE(r.served());
  EXPECT_EQ(r.status, 410);
  EXPECT_EQ(r.error_code, 10043);
  EXPECT_EQ(r.phase, Phase::kSunset);
  ASSERT_NE(r.entry, nullptr);
  EXPECT_EQ(r.entry->version_text, "2025-01-01");
  EXPECT_EQ(active_versions_of(r.error_body), std::vector<std::string>{"2025-11-01"});
}

TEST_F(VersionResolverTest, DayBeforeSunsetIsStillServed) {
  const Resolution& r = resolve("2025-01-01", "2026-06-30");
  ASSERT_TRUE(r.served());
  EXPECT_EQ(r.phase, Phase::kDeprecated);
}

TEST_F(VersionResolverTest, ActiveVersionsIncludeMaintenanceAndDeprecatedOnes) {
  const Resolution& r = resolve("latest", "2026-05-01");
  EXPECT_EQ(active_versions_of(r.error_body),
            (std::vector<std::string>{"2025-01-01", "2025-11-01"}));
}

TEST_F(VersionResolverTest, DeprecatedPhaseCarriesDeprecationAndSunsetHeaders) {
  const Resolution& r = resolve("2025-01-01", "2026-05-01");
  ASSERT_TRUE(r.served());
  EXPECT_EQ(r.phase, Phase::kDeprecated);
  EXPECT_TRUE(r.deprecated);
  EXPECT_EQ(r.sunset_http_date, "Wed, 01 Jul 2026 00:00:00 GMT");
  http::Response response;
  resolver_.add_reply_headers(r, response);
  EXPECT_EQ(response.extra_headers(),
            "X-Decision-Version: 2025-01-01\r\n"
            "X-API-Deprecated: true\r\n"
            "Sunset: Wed, 01 Jul 2026 00:00:00 GMT\r\n");
}

TEST_F(VersionResolverTest, MaintenancePhaseCarriesDeprecationAndSunsetHeaders) {
  const Resolution& r = resolve("2025-01-01", "2026-01-01");
  ASSERT_TRUE(r.served());
  EXPECT_EQ(r.phase, Phase::kMaintenance);
  http::Response response;
  resolver_.add_reply_headers(r, response);
  EXPECT_EQ(response.extra_headers(),
            "X-Decision-Version: 2025-01-01\r\n"
            "X-API-Deprecated: true\r\n"
            "Sunset: Wed, 01 Jul 2026 00:00:00 GMT\r\n");
}

TEST_F(VersionResolverTest, DeprecatedPhaseCarriesWarning20002WithSunsetDate) {
  const Resolution& r = resolve("2025-01-01", "2026-05-01");
  simdjson::dom::parser parser;
  simdjson::dom::object warning;
  ASSERT_FALSE(parser.parse(simdjson::padded_string(r.warning)).get_object().get(warning))
      << r.warning;
  EXPECT_EQ(int64_t(warning["code"]), 20002);
  EXPECT_EQ(std::string_view(warning["details"]["sunset_date"]), "2026-07-01");
  EXPECT_FALSE(std::string_view(warning["message"]).empty());
}

// An active version whose sunset is announced with no maintenance or deprecated phase:
// notices from 90 days before, then 410, never straight from silence to gone.
class SunsetNoticeTest : public ::testing::Test {
 protected:
  struct Notice {
    bool sunset_header = false;
    bool deprecated_header = false;
    int64_t days_left = -1;  // -1: no warning
  };

  Notice notice_on(std::string_view today) {
    const Resolution& r = resolver_.resolve("2025-01-01", day(today));
    EXPECT_TRUE(r.served()) << today;
    http::Response response;
    resolver_.add_reply_headers(r, response);
    Notice n;
    n.sunset_header = response.extra_headers().find("Sunset: Wed, 01 Jul 2026 00:00:00 GMT\r\n") != std::string::npos;
    n.deprecated_header = response.extra_headers().find("X-API-Deprecated") != std::string::npos;
    if (!r.warning.empty()) {
      simdjson::dom::parser parser;
      simdjson::dom::object warning;
      EXPECT_FALSE(parser.parse(simdjson::padded_string(r.warning)).get_object().get(warning)) << r.warning;
      EXPECT_EQ(int64_t(warning["code"]), 20002);
      EXPECT_EQ(std::string_view(warning["details"]["sunset_date"]), "2026-07-01");
      int64_t days = 0;
      EXPECT_FALSE(warning["details"]["days_left"].get_int64().get(days)) << r.warning;
      n.days_left = days;
    }
    return n;
  }

  VersionTable table_ = table_from(R"([{"version": "2025-01-01", "release": "2025-01-01", "sunset": "2026-07-01"},
                                       {"version": "2025-11-01", "release": "2025-11-01"}])");
  VersionResolver resolver_{table_, kDecisionVersionHeader};
};

TEST_F(SunsetNoticeTest, NothingMoreThan90DaysBefore) {
  const Notice n = notice_on("2026-04-01");  // 91 days left
  EXPECT_FALSE(n.sunset_header);
  EXPECT_FALSE(n.deprecated_header);
  EXPECT_EQ(n.days_left, -1);
}

TEST_F(SunsetNoticeTest, NoticesAreDue90_60_30And7DaysBefore) {
  const std::pair<const char*, int64_t> days[] = {
      {"2026-04-02", 90}, {"2026-05-02", 60}, {"2026-05-03", 60}, {"2026-06-01", 30},
      {"2026-06-02", 30}, {"2026-06-24", 7},  {"2026-06-25", 7},  {"2026-06-30", 7},
  };
  for (const auto& [today, expected] : days) {
    const Notice n = notice_on(today);
    EXPECT_TRUE(n.sunset_header) << today;
    EXPECT_FALSE(n.deprecated_header) << today << ": an active version is not deprecated";
    EXPECT_EQ(n.days_left, expected) << today;
  }
  EXPECT_EQ(resolver_.resolve("2025-01-01", day("2026-07-01")).status, 410);
}

TEST_F(VersionResolverTest, ADeprecatedVersionsWarningCarriesTheNoticeDueToo) {
  // kScheduledTable: deprecated 2026-04-01, sunset 2026-07-01 (91 days apart).
  EXPECT_EQ(resolve("2025-01-01", "2026-04-01").warning.find("days_left"), std::string_view::npos);
  const Resolution& r = resolve("2025-01-01", "2026-06-10");  // 21 days left
  EXPECT_TRUE(r.deprecated);
  EXPECT_NE(r.warning.find(R"("days_left":30)"), std::string_view::npos) << r.warning;
  EXPECT_NE(r.warning.find("in 21 days"), std::string_view::npos) << r.warning;
}

TEST_F(VersionResolverTest, ActiveVersionReplyCarriesOnlyTheVersionUsed) {
  http::Response response;
  resolver_.add_reply_headers(resolve("2025-11-01"), response);
  EXPECT_EQ(response.extra_headers(), "X-Decision-Version: 2025-11-01\r\n");
}

TEST_F(VersionResolverTest, ErrorReplyIsTheEnvelopeWithItsStatus) {
  http::Response response;
  response.set_text(200, "partial");
  const Resolution& r = resolve("2025-01-01", "2026-07-01");
  VersionResolver::write_error(r, response);
  EXPECT_EQ(response.status(), 410);
  EXPECT_EQ(response.content_type(), "application/json");
  EXPECT_EQ(response.body(), r.error_body);
  http::Response unchanged;
  resolver_.add_reply_headers(r, unchanged);
  EXPECT_EQ(unchanged.extra_headers(), "");
}

TEST_F(VersionResolverTest, PhasesFollowTheDayGiven) {
  EXPECT_EQ(resolve("2025-01-01", "2025-12-31").phase, Phase::kActive);
  EXPECT_EQ(resolve("2025-01-01", "2026-01-01").phase, Phase::kMaintenance);
  EXPECT_EQ(resolve("2025-01-01", "2026-04-01").phase, Phase::kDeprecated);
  EXPECT_EQ(resolve("2025-01-01", "2026-07-01").status, 410);
  EXPECT_EQ(resolve("2025-01-01", "2025-12-31").phase, Phase::kActive);  // clocks step back
}

TEST_F(VersionResolverTest, ResolvingAllocatesNothingOnceTheDayIsCached) {
  const absl::CivilDay today = day("2026-05-01");
  {
    const decision::testing::AllocationCount refresh;
    resolver_.resolve(std::nullopt, today);  // a new day: fills the day's cache
    ASSERT_GT(refresh.since(), 0u) << "the allocation counter sees nothing";
  }
  http::Response response;
  response.body().reserve(1024);
  const Resolution* results[6] = {};
  const decision::testing::AllocationCount count;
  results[0] = &resolver_.resolve(std::nullopt, today);
  results[1] = &resolver_.resolve("2025-01-01", today);
  results[2] = &resolver_.resolve("2025-11-01", today);
  results[3] = &resolver_.resolve("2025-02-30", today);
  results[4] = &resolver_.resolve("latest", today);
  results[5] = &resolver_.resolve("2099-01-01", today);
  VersionResolver::write_error(*results[4], response);
  EXPECT_EQ(count.since(), 0u);
  EXPECT_TRUE(results[1]->deprecated);
  EXPECT_EQ(results[5]->status, 400);
}

TEST_F(VersionResolverTest, FeaturesComeWithTheVersionServed) {
  EXPECT_FALSE(resolve("2025-01-01").features().video);
  EXPECT_TRUE(resolve("2025-11-01").features().video);
}

}  // namespace
}  // namespace api_versions
