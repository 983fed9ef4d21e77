// X-Tracking-Version on GET /v1/tracking (docs/versions-and-languages.md): read before
// the token, exact known dates only, the oldest version not sunset when absent, echoed on
// every served reply, 410 10043 once sunset, deprecation headers in maintenance and
// deprecated phases. Lifecycle files use dates relative to the real current day.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/integration/event_log_lines.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/tracking_client.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/utc_days.h"

namespace integration {
namespace {

constexpr char kGuide[] = "https://docs.example.test/tracking-2025-11-01";
const std::vector<std::string> kBothVersions = {"2025-01-01", "2025-11-01"};

// A --versions file: 2025-01-01 with these phase dates (empty: not announced), 2025-11-01 active.
std::string lifecycle(const std::string& maintenance, const std::string& deprecated, const std::string& sunset) {
  const auto date = [](const std::string& day) { return day.empty() ? std::string("null") : "\"" + day + "\""; };
  return R"([{"version":"2025-01-01","release":"2025-01-01","maintenance":)" + date(maintenance) +
         R"(,"deprecated":)" + date(deprecated) + R"(,"sunset":)" + date(sunset) + R"(,"migrationGuide":")" + kGuide +
         R"("},{"version":"2025-11-01","release":"2025-11-01"}])";
}

std::string version_header(const std::string& version) { return "X-Tracking-Version: " + version + "\r\n"; }

class TrackingVersions : public ::testing::Test {
 protected:
  void start(const std::string& versions_json = "") {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), state_.flag(), "--events-flush=50ms"};
    if (!versions_json.empty()) {
      versions_ = std::make_unique<TempFile>("versions.json", versions_json);
      flags.push_back("--versions=" + versions_->path());
    }
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  // The creative of ad (e.g. "ad_1") in a decision for user asking for all three ads.
  CreativeTokens creative_of(const std::string& ad, std::string_view user = "") {
    const CurlReply reply = decide(*server_, user, 3);
    EXPECT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id == ad) return c;
    }
    ADD_FAILURE() << ad << " not served: " << reply.body;
    return {};
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDirWithKeys state_;
  std::unique_ptr<TempFile> versions_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(TrackingVersions, AnythingButAnExactKnownDateIs400With10042BeforeTheTokenIsRead) {
  start();
  const CreativeTokens c = creative_of("ad_3");
  TrackingClient client(*server_);
  for (const char* bad : {"latest", "2025-1-1", "20250101", ">=2025-01-01", "2025-01-01..2025-11-01",
                                "2025-01-01, 2025-11-01", "~2025-11-01", "2024-06-01", "2025-13-01", "2025-11-01T00:00:00Z",
                                "LATEST", "v2025-11-01"}) {
    const std::optional<HttpReply> reply = client.get(c.impression, version_header(bad));
    ASSERT_TRUE(reply) << bad << ": " << client.last_error();
    EXPECT_EQ(reply->status, 400) << bad;
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10042)) << bad;
    std::vector<std::string> active = error_detail_strings(reply->body, "active_versions");
    std::sort(active.begin(), active.end());
    EXPECT_EQ(active, kBothVersions) << bad << ": " << reply->body;
  }
  // None of those calls reached the token: its first accepted call is the one that counts.
  const std::optional<HttpReply> good = client.get(c.impression, version_header("2025-11-01"));
  ASSERT_TRUE(good);
  EXPECT_EQ(good->status, 204);
  const std::vector<EventLine> lines = wait_for_event_lines(
      state_.path(), [](const std::vector<EventLine>& l) { return count_kind(l, "impression") >= 1; });
  EXPECT_EQ(count_kind(lines, "impression"), 1u);
  EXPECT_EQ(count_impressions(lines, false), 1u) << "the first served call is the counted one";
}

TEST_F(TrackingVersions, RepeatedVersionHeaderIs10042EvenWhenTheValuesAgree) {
  start();
  const CreativeTokens c = creative_of("ad_3");
  TrackingClient client(*server_);
  for (const std::string& headers : {version_header("2025-11-01") + version_header("2025-11-01"),
                                    version_header("2025-01-01") + version_header("2025-11-01")}) {
    const std::optional<HttpReply> reply = client.get(c.impression, headers);
    ASSERT_TRUE(reply) << client.last_error();
    EXPECT_EQ(reply->status, 400);
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10042));
  }
}

TEST_F(TrackingVersions, TheVersionUsedIsEchoedOnEveryServedReply) {
  start();
  TrackingClient client(*server_);
  for (const std::string& version : kBothVersions) {
    const CreativeTokens one = creative_of("ad_1");    // click URL
    const CreativeTokens two = creative_of("ad_2");    // no click URL
    CreativeTokens three = creative_of("ad_3");  // custom event
    struct Call {
      std::string what, token;
      int status;
    };
    for (const Call& call : std::vector<Call>{{"impression", one.impression, 204},
                                              {"click", one.click, 302},
                                              {"click without clickUrl", two.click, 204},
                                              {"custom event", three.custom["add_to_cart"], 204},
                                              {"garbage token", "garbage", 400},
                                              {"empty token", "", 400}}) {
      const std::optional<HttpReply> reply = client.get(call.token, version_header(version));
      ASSERT_TRUE(reply) << call.what << ": " << client.last_error();
      EXPECT_EQ(reply->status, call.status) << version << " " << call.what << ": " << reply->body;
      EXPECT_EQ(reply->header("X-Tracking-Version").value_or("<none>"), version) << call.what;
    }
  }
  // Without the header: the oldest active version, on success and on refusal alike.
  for (const std::string& token : {creative_of("ad_3").impression, std::string("garbage")}) {
    const std::optional<HttpReply> reply = client.get(token);
    ASSERT_TRUE(reply) << client.last_error();
    EXPECT_EQ(reply->header("X-Tracking-Version").value_or("<none>"), "2025-01-01") << token;
    EXPECT_FALSE(reply->header("X-API-Deprecated")) << "an active version carries no deprecation";
  }
}

TEST_F(TrackingVersions, MissingHeaderFallsToTheOldestVersionNotSunset) {
  start(lifecycle(utc_date(-200), utc_date(-100), utc_date(-10)));
  const CreativeTokens c = creative_of("ad_3");
  TrackingClient client(*server_);
  const std::optional<HttpReply> reply = client.get(c.impression);
  ASSERT_TRUE(reply) << client.last_error();
  EXPECT_EQ(reply->status, 204) << reply->body;
  EXPECT_EQ(reply->header("X-Tracking-Version").value_or("<none>"), "2025-11-01");
}

TEST_F(TrackingVersions, SunsetVersionIs410With10043NamingTheWayForwardAndCountsNothing) {
  start(lifecycle(utc_date(-200), utc_date(-100), utc_date(-10)));
  const CreativeTokens c = creative_of("ad_3");
  TrackingClient client(*server_);
  for (const std::string& token : {c.impression, c.click}) {
    const std::optional<HttpReply> reply = client.get(token, version_header("2025-01-01"));
    ASSERT_TRUE(reply) << client.last_error();
    EXPECT_EQ(reply->status, 410);
    EXPECT_TRUE(IsErrorEnvelope(reply->body, 10043));
    EXPECT_FALSE(reply->header("Location")) << "a sunset version never redirects";
    EXPECT_EQ(error_detail_string(reply->body, "deprecated_version").value_or("<none>"), "2025-01-01") << reply->body;
    EXPECT_EQ(error_detail_strings(reply->body, "active_versions"), std::vector<std::string>{"2025-11-01"}) << reply->body;
    EXPECT_EQ(error_detail_string(reply->body, "migration_guide").value_or("<none>"), kGuide);
    EXPECT_EQ(error_detail_string(reply->body, "sunset_date").value_or("<none>"), utc_date(-10));
  }
  const std::optional<HttpReply> good = client.get(c.impression, version_header("2025-11-01"));
  ASSERT_TRUE(good);
  EXPECT_EQ(good->status, 204);
  const std::vector<EventLine> lines = wait_for_event_lines(
      state_.path(), [](const std::vector<EventLine>& l) { return count_kind(l, "impression") >= 1; });
  EXPECT_EQ(count_kind(lines, "click"), 0u) << "the refused click was not logged";
  EXPECT_EQ(count_impressions(lines, false), 1u);
  EXPECT_EQ(count_impressions(lines, true), 0u) << "the refused impression call counted nothing";
}

TEST_F(TrackingVersions, MaintenanceAndDeprecatedVersionsAreServedWithDeprecationHeaders) {
  struct Phase {
    std::string name, versions;
  };
  for (const Phase& phase : {Phase{"maintenance", lifecycle(utc_date(-20), utc_date(10), utc_date(30))},
                             Phase{"deprecated", lifecycle(utc_date(-60), utc_date(-5), utc_date(30))}}) {
    SCOPED_TRACE(phase.name);
    start(phase.versions);
    const CreativeTokens c = creative_of("ad_1");
    TrackingClient client(*server_);
    for (const std::string& token : {c.impression, c.click}) {
      const std::optional<HttpReply> reply = client.get(token, version_header("2025-01-01"));
      ASSERT_TRUE(reply) << client.last_error();
      EXPECT_EQ(reply->status, token == c.click ? 302 : 204);
      EXPECT_EQ(reply->header("X-Tracking-Version").value_or("<none>"), "2025-01-01");
      EXPECT_EQ(reply->header("X-API-Deprecated").value_or("<none>"), "true");
      EXPECT_EQ(reply->header("Sunset").value_or("<none>"), http_date_at_midnight(30));
    }
    const std::optional<HttpReply> current = client.get(c.impression, version_header("2025-11-01"));
    ASSERT_TRUE(current);
    EXPECT_EQ(current->status, 204);
    EXPECT_FALSE(current->header("X-API-Deprecated")) << "2025-11-01 is active";
    server_.reset();
  }
}

}  // namespace
}  // namespace integration
