// X-Decision-Version (docs/versions-and-languages.md):
// checked before anything else; exact dates only; the oldest version not sunset when
// absent; 410 10043 once sunset; maintenance and deprecated versions served with
// X-API-Deprecated, Sunset and warning 20002. Lifecycle files are written with dates
// relative to the real current day, so they keep their meaning whenever the tests run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/json_body.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/utc_days.h"

namespace integration {
namespace {

constexpr char kRequest[] = R"({"placements":[{"key":"home_top"}]})";
constexpr char kGuide[] = "https://docs.example.test/migrate-to-2025-11-01";

std::vector<std::string> string_array(simdjson::dom::element object, std::string_view key) {
  std::vector<std::string> out;
  for (simdjson::dom::element item : array_member(object, key)) {
    std::string_view text;
    out.push_back(item.get(text) == simdjson::SUCCESS ? std::string(text) : "<not a string>");
  }
  return out;
}

// The details object of the one error of an error envelope.
struct ErrorDetails {
  explicit ErrorDetails(const std::string& body) : json(body) {
    const std::vector<simdjson::dom::element> errors = array_member(json.root(), "errors");
    if (errors.size() == 1) details = member(errors[0], "details");
  }
  JsonBody json;
  std::optional<simdjson::dom::element> details;
};

// A --versions file: 2025-01-01 with the given phase dates (empty: not announced) and
// 2025-11-01 active.
std::string lifecycle(const std::string& maintenance, const std::string& deprecated, const std::string& sunset) {
  const auto date = [](const std::string& day) { return day.empty() ? std::string("null") : "\"" + day + "\""; };
  return R"([{"version":"2025-01-01","release":"2025-01-01","maintenance":)" + date(maintenance) +
         R"(,"deprecated":)" + date(deprecated) + R"(,"sunset":)" + date(sunset) + R"(,"migrationGuide":")" + kGuide +
         R"("},{"version":"2025-11-01","release":"2025-11-01"}])";
}

TEST(Versions, MissingHeaderServesTheOldestActiveVersion) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide(kRequest, {.accept_language = "en"});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("X-Decision-Version"), "2025-01-01");
  EXPECT_EQ(reply.header("X-API-Deprecated"), "");
  EXPECT_EQ(reply.body.find("\"template\""), std::string::npos) << "the 2025-01-01 shape has no template";
}

TEST(Versions, EachActiveVersionIsServedAndEchoed) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  for (const char* version : {"2025-01-01", "2025-11-01"}) {
    const CurlReply reply = client.decide(kRequest, {.version = version, .accept_language = "en"});
    ASSERT_EQ(reply.status, 200) << version << ": " << reply.body;
    EXPECT_EQ(reply.header("X-Decision-Version"), version);
    DecisionReply decision;
    EXPECT_TRUE(ReadDecision(reply.body, decision));
    EXPECT_TRUE(decision.warnings_null) << version << " is active: no warning";
  }
}

TEST(Versions, AnythingButAnExactKnownDateIs400With10042) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  for (const char* version : {"latest", ">=2025-01-01", "2024-01-01", "2025-1-1", "2025-01-01T00:00:00Z", "2025-13-01"}) {
    SCOPED_TRACE(version);
    const CurlReply reply = client.decide(kRequest, {.version = version});
    ASSERT_TRUE(reply.ok) << reply.error;
    EXPECT_EQ(reply.status, 400);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10042, ""}}));
    const ErrorDetails error(reply.body);
    ASSERT_TRUE(error.details) << reply.body;
    EXPECT_EQ(string_array(*error.details, "active_versions"), (std::vector<std::string>{"2025-01-01", "2025-11-01"}));
    EXPECT_EQ(reply.header("X-Decision-Version"), "") << "no version was served";
  }
}

// Before anything else: a bad version wins over a wrong media type and a body that is not JSON.
TEST(Versions, VersionIsCheckedBeforeMediaTypeAndBody) {
  ServerProcess server(standard_flags());
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide("not json", {.version = "latest", .content_type = "text/plain"});
  EXPECT_EQ(reply.status, 400);
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10042, ""}}));
}

TEST(Versions, SunsetVersionIs410With10043) {
  const TempFile versions("versions.json", lifecycle(utc_date(-200), utc_date(-100), utc_date(-10)));
  ServerProcess server(standard_flags({"--versions=" + versions.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide(kRequest, {.version = "2025-01-01"});
  EXPECT_EQ(reply.status, 410);
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10043, ""}}));
  const ErrorDetails error(reply.body);
  ASSERT_TRUE(error.details) << reply.body;
  EXPECT_EQ(string_member(*error.details, "deprecated_version"), "2025-01-01");
  EXPECT_EQ(string_array(*error.details, "active_versions"), std::vector<std::string>{"2025-11-01"});
  EXPECT_EQ(string_member(*error.details, "migration_guide"), kGuide);
  EXPECT_EQ(string_member(*error.details, "sunset_date"), utc_date(-10));
  EXPECT_EQ(reply.header("X-Decision-Version"), "");

  // Without a header: the oldest version that is not sunset.
  const CurlReply defaulted = client.decide(kRequest, {.accept_language = "en"});
  EXPECT_EQ(defaulted.status, 200) << defaulted.body;
  EXPECT_EQ(defaulted.header("X-Decision-Version"), "2025-11-01");
}

// docs/versions-and-languages.md: warnings about a coming sunset are sent 90, 60, 30 and 7
// days before it, whatever the phase; an active version with only a sunset date is not gone
// unannounced.
TEST(Versions, AnActiveVersionWithASunsetDueCarriesTheSunsetNoticeButIsNotDeprecated) {
  const TempFile versions("versions.json", lifecycle("", "", utc_date(45)));
  ServerProcess server(standard_flags({"--versions=" + versions.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide(kRequest, {.version = "2025-01-01", .accept_language = "en"});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("X-API-Deprecated"), "");
  EXPECT_EQ(reply.header("Sunset"), http_date_at_midnight(45));
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.warning_codes(), std::vector<int64_t>{20002}) << reply.body;
  EXPECT_EQ(decision.warnings[0].details["sunset_date"], utc_date(45));
  EXPECT_NE(reply.body.find(R"("days_left":60)"), std::string::npos) << reply.body;
  // The schedule gives it no deprecated phase: served as given, said once at start.
  EXPECT_NE(server.stderr_text().find(
                "level=warn component=versions msg=\"--versions: version 2025-01-01 is deprecated for 0 days"),
            std::string::npos)
      << server.stderr_text();
}

TEST(Versions, AMaintenanceDateWithoutASunsetDateIsRefusedNamingTheEntry) {
  const TempFile versions("versions.json", lifecycle(utc_date(-10), "", ""));
  const FinishedRun run = run_to_exit(standard_flags({"--versions=" + versions.path()}));
  ASSERT_TRUE(run.exit.has_value());
  EXPECT_EQ(run.exit->code, 2) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find("[0].sunset: required with maintenance or deprecated"), std::string::npos)
      << run.stderr_text;
}

struct DeprecatedPhase {
  const char* name;
  int maintenance_day;  // relative to today
  int deprecated_day;
  int sunset_day;
};

void PrintTo(const DeprecatedPhase& phase, std::ostream* out) { *out << phase.name; }

class DeprecatedVersionTest : public ::testing::TestWithParam<DeprecatedPhase> {};

TEST_P(DeprecatedVersionTest, IsServedWithDeprecationHeadersAndWarning20002First) {
  const DeprecatedPhase& phase = GetParam();
  const TempFile versions("versions.json", lifecycle(utc_date(phase.maintenance_day), utc_date(phase.deprecated_day),
                                                     utc_date(phase.sunset_day)));
  ServerProcess server(standard_flags({"--versions=" + versions.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  // No Accept-Language, so 20001 follows: 20002 must come first.
  const CurlReply reply = client.decide(kRequest, {.version = "2025-01-01"});
  ASSERT_EQ(reply.status, 200) << reply.body;
  EXPECT_EQ(reply.header("X-Decision-Version"), "2025-01-01");
  EXPECT_EQ(reply.header("X-API-Deprecated"), "true");
  EXPECT_EQ(reply.header("Sunset"), http_date_at_midnight(phase.sunset_day));
  DecisionReply decision;
  ASSERT_TRUE(ReadDecision(reply.body, decision));
  ASSERT_EQ(decision.warning_codes(), (std::vector<int64_t>{20002, 20001})) << reply.body;
  EXPECT_EQ(decision.warnings[0].details["sunset_date"], utc_date(phase.sunset_day));

  // The default is still the oldest version not sunset: this one, deprecated.
  const CurlReply defaulted = client.decide(kRequest, {.accept_language = "en"});
  EXPECT_EQ(defaulted.header("X-Decision-Version"), "2025-01-01");
  EXPECT_EQ(defaulted.header("X-API-Deprecated"), "true");
  ASSERT_TRUE(ReadDecision(defaulted.body, decision));
  EXPECT_EQ(decision.warning_codes(), std::vector<int64_t>{20002}) << defaulted.body;

  // The active version beside it carries none of it.
  const CurlReply active = client.decide(kRequest, {.version = "2025-11-01", .accept_language = "en"});
  EXPECT_EQ(active.header("X-API-Deprecated"), "");
  EXPECT_EQ(active.header("Sunset"), "");
  ASSERT_TRUE(ReadDecision(active.body, decision));
  EXPECT_TRUE(decision.warnings_null) << active.body;
}

INSTANTIATE_TEST_SUITE_P(Phases, DeprecatedVersionTest,
                         ::testing::Values(DeprecatedPhase{"Maintenance", -10, 80, 170},
                                           DeprecatedPhase{"Deprecated", -100, -10, 80}),
                         [](const ::testing::TestParamInfo<DeprecatedPhase>& info) { return info.param.name; });

// docs/versions-and-languages.md: a version whose release date is still ahead is not
// served, not listed as active, and never the default.
TEST(Versions, UnreleasedVersionIsAnUnknownVersion) {
  const std::string upcoming = utc_date(30);
  const TempFile versions(
      "versions.json", R"([{"version":"2025-01-01","release":"2025-01-01"},{"version":")" + upcoming +
                           R"(","release":")" + upcoming + R"("}])");
  ServerProcess server(standard_flags({"--versions=" + versions.path()}));
  ASSERT_TRUE(server.serving()) << server.start_error();
  DecisionClient client(server);
  const CurlReply reply = client.decide(kRequest, {.version = upcoming});
  EXPECT_EQ(reply.status, 400);
  EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10042, ""}}));
  const ErrorDetails error(reply.body);
  ASSERT_TRUE(error.details) << reply.body;
  EXPECT_EQ(string_array(*error.details, "active_versions"), std::vector<std::string>{"2025-01-01"});
}

}  // namespace
}  // namespace integration
