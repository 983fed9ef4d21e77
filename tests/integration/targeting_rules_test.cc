// The targeting rules over HTTP (docs/targeting.md): dayparts read on
// the daypart's, the user's, the GeoIP or the UTC clock; destinations, read from
// 2025-11-01 on and widened through GeoNames; and GDPR, which decides whether the user id
// travels in tracking tokens. Daypart windows are six hours wide around the real current
// time (or twelve hours from it), so the moment the server decides is hours from any edge.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <set>
#include <utility>
#include <string>
#include <vector>

#include "tests/integration/decision_client.h"
#include "tests/integration/decision_reply.h"
#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/test_base_url.h"

namespace integration {
namespace {

constexpr char kGeoIpDbFlag[] = "--geoip-db=" GEOIP_FIXTURE_DIR "/GeoIP2-City-Test.mmdb";
constexpr char kGeoNamesDirFlag[] = "--geonames-dir=" GEONAMES_FIXTURE_DIR;

// Requests ask for 10 creatives of catalogs of at most 4 ads: one reply lists every
// eligible ad.
std::set<std::string> ads_in_one_reply(const ServerProcess& server, const std::string& body,
                                 const DecisionHeaders& headers = {}) {
  DecisionClient client(server);
  const CurlReply reply = client.decide(body, headers);
  EXPECT_EQ(reply.status, 200) << reply.body;
  DecisionReply decision;
  EXPECT_TRUE(ReadDecision(reply.body, decision));
  const std::vector<std::string> ids = decision.ad_ids();
  return {ids.begin(), ids.end()};
}

std::vector<std::string> catalog_and(const TempFile& catalog, std::vector<std::string> flags) {
  flags.insert(flags.begin(), "--catalog=" + catalog.path());
  return flags;
}

// A server on a catalog of these ads, all in the placement "slot", with these flags.
struct RulesServer {
  RulesServer(const std::vector<TestAd>& ads, std::vector<std::string> flags)
      : catalog("catalog.json", test_catalog_json({{1, "slot"}}, ads)),
        server(standard_flags(catalog_and(catalog, std::move(flags)))) {}
  TempFile catalog;
  ServerProcess server;
};

// --- Dayparts ---------------------------------------------------------------------------

constexpr int kMinutesPerDay = 24 * 60;
constexpr int kHalfWindowMinutes = 3 * 60;
// Zones without daylight saving time, so that their clocks are UTC plus a constant.
constexpr int kTokyoOffsetMinutes = 9 * 60;   // Asia/Tokyo
constexpr int kManilaOffsetMinutes = 8 * 60;  // Asia/Manila, GeoIP's zone of kManilaIp
constexpr char kManilaIp[] = "202.196.224.1";

int utc_minute_of_day_now() {
  const auto minutes =
      std::chrono::duration_cast<std::chrono::minutes>(std::chrono::system_clock::now().time_since_epoch());
  return static_cast<int>(minutes.count() % kMinutesPerDay);
}

// "HH:MM", 1440 as "24:00".
std::string clock_text(int minute) {
  const auto two = [](int n) { return std::string(n < 10 ? "0" : "") + std::to_string(n); };
  return two(minute / 60) + ":" + two(minute % 60);
}

std::string daypart(int start_minute, int end_minute, const std::string& zone) {
  std::string out = R"({"start":")" + clock_text(start_minute) + R"(","end":")" + clock_text(end_minute) + "\"";
  if (!zone.empty()) out += R"(,"timezone":")" + zone + "\"";
  return out + "}";
}

// An ad's targeting: every day, local minutes [center - 3 h, center + 3 h) in `zone` (empty:
// the user's zone), split in two at midnight when it crosses it, as the catalog requires.
std::string dayparts_around(int center_minute, const std::string& zone = "") {
  const int center = (center_minute % kMinutesPerDay + kMinutesPerDay) % kMinutesPerDay;
  const int start = (center - kHalfWindowMinutes + kMinutesPerDay) % kMinutesPerDay;
  const int end = (center + kHalfWindowMinutes) % kMinutesPerDay;
  std::string parts;
  if (start < end) {
    parts = daypart(start, end, zone);
  } else {
    parts = daypart(start, kMinutesPerDay, zone);
    if (end > 0) parts += "," + daypart(0, end, zone);
  }
  return R"({"dayparts":[)" + parts + "]}";
}

std::string request_with_user(const std::string& user_json) {
  return R"({"placements":[{"key":"slot","count":10}],"user":)" + user_json + "}";
}

TEST(TargetingRulesDayparts, AWindowAroundNowIsServedAndTheOppositeOneIsNot) {
  const int now = utc_minute_of_day_now();
  RulesServer fixture({{.id = 1, .placement_ids = {1}, .targeting_json = dayparts_around(now)},
                       {.id = 2, .placement_ids = {1}, .targeting_json = dayparts_around(now + kMinutesPerDay / 2)},
                       {.id = 3, .placement_ids = {1}}},
                      {});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  // No user.timezone, no GeoIP: UTC.
  EXPECT_EQ(ads_in_one_reply(fixture.server, R"({"placements":[{"key":"slot","count":10}]})"),
            (std::set<std::string>{"ad_1", "ad_3"}));
}

TEST(TargetingRulesDayparts, TheUsersTimeZoneShiftsWhichWindowHolds) {
  const int now = utc_minute_of_day_now();
  RulesServer fixture({{.id = 1, .placement_ids = {1}, .targeting_json = dayparts_around(now)},
                       {.id = 2, .placement_ids = {1}, .targeting_json = dayparts_around(now + kTokyoOffsetMinutes)},
                       {.id = 3, .placement_ids = {1}}},
                      {});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_with_user(R"({"timezone":"Asia/Tokyo"})")),
            (std::set<std::string>{"ad_2", "ad_3"}));
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_with_user(R"({"timezone":"UTC"})")),
            (std::set<std::string>{"ad_1", "ad_3"}));
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_with_user(R"({"id":"user-7"})")),
            (std::set<std::string>{"ad_1", "ad_3"}));
}

TEST(TargetingRulesDayparts, TheGeoIpTimeZoneHoldsWhenTheRequestNamesNone) {
  const int now = utc_minute_of_day_now();
  RulesServer fixture({{.id = 1, .placement_ids = {1}, .targeting_json = dayparts_around(now)},
                       {.id = 2, .placement_ids = {1}, .targeting_json = dayparts_around(now + kManilaOffsetMinutes)},
                       {.id = 3, .placement_ids = {1}}},
                      {kGeoIpDbFlag});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_with_user(R"({"ip":")" + std::string(kManilaIp) + "\"}")),
            (std::set<std::string>{"ad_2", "ad_3"}));
  // user.timezone wins over the IP's zone; an IP the database does not know leaves UTC.
  EXPECT_EQ(ads_in_one_reply(fixture.server,
                       request_with_user(R"({"ip":")" + std::string(kManilaIp) + R"(","timezone":"UTC"})")),
            (std::set<std::string>{"ad_1", "ad_3"}));
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_with_user(R"({"ip":"10.1.2.3"})")),
            (std::set<std::string>{"ad_1", "ad_3"}));
}

TEST(TargetingRulesDayparts, ADaypartsOwnTimeZoneWinsOverTheUsers) {
  const int now = utc_minute_of_day_now();
  RulesServer fixture(
      {{.id = 1, .placement_ids = {1}, .targeting_json = dayparts_around(now + kTokyoOffsetMinutes, "Asia/Tokyo")},
       {.id = 2, .placement_ids = {1}, .targeting_json = dayparts_around(now, "Asia/Tokyo")},
       {.id = 3, .placement_ids = {1}}},
      {});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  for (const char* user : {R"({"timezone":"UTC"})", R"({"timezone":"Asia/Tokyo"})", "{}"}) {
    SCOPED_TRACE(user);
    EXPECT_EQ(ads_in_one_reply(fixture.server, request_with_user(user)), (std::set<std::string>{"ad_1", "ad_3"}));
  }
}

TEST(TargetingRulesDayparts, AnUnknownUserTimeZoneIs422With10020) {
  RulesServer fixture({{.id = 1, .placement_ids = {1}}}, {});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  DecisionClient client(fixture.server);
  for (const char* user : {R"({"timezone":"Europe/Atlantis"})", R"({"timezone":"Mars/Olympus_Mons"})",
                           R"({"timezone":"/etc/localtime"})", R"({"timezone":3600})"}) {
    SCOPED_TRACE(user);
    const CurlReply reply = client.decide(request_with_user(user));
    EXPECT_EQ(reply.status, 422);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10020, "user.timezone"}}));
  }
}

// --- Destination ------------------------------------------------------------------------

constexpr char kLisbon[] = "2267057";
constexpr char kPortugal[] = "2264397";
constexpr char kFrance[] = "3017382";
constexpr char kSweden[] = "2661886";

const std::vector<TestAd> kDestinationAds = {
    {.id = 1, .placement_ids = {1}, .targeting_json = R"({"destination":[2267057]})"},  // Lisbon
    {.id = 2, .placement_ids = {1}, .targeting_json = R"({"destination":[2264397]})"},  // Portugal
    {.id = 3, .placement_ids = {1}, .targeting_json = R"({"destination":[3017382]})"},  // France
    {.id = 4, .placement_ids = {1}},                                                    // anywhere
};

const DecisionHeaders kVersion20251101{.version = "2025-11-01"};
const DecisionHeaders kVersion20250101{.version = "2025-01-01"};

std::string request_to(const std::string& destination_json) {
  return R"({"placements":[{"key":"slot","count":10,"targeting":{"destination":)" + destination_json + "}}]}";
}

TEST(TargetingRulesDestination, ARequestDestinationReachesTheAdsNamingIt) {
  RulesServer fixture(kDestinationAds, {kGeoNamesDirFlag});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_to(std::string("[") + kFrance + "]"), kVersion20251101),
            (std::set<std::string>{"ad_3", "ad_4"}));
  // Digit strings too; a country does not reach an ad that names one of its cities.
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_to(std::string("[\"") + kPortugal + "\"]"), kVersion20251101),
            (std::set<std::string>{"ad_2", "ad_4"}));
}

TEST(TargetingRulesDestination, ARequestCityCountsAsItsCountry) {
  RulesServer fixture(kDestinationAds, {kGeoNamesDirFlag});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_to(std::string("[") + kLisbon + "]"), kVersion20251101),
            (std::set<std::string>{"ad_1", "ad_2", "ad_4"}));
}

TEST(TargetingRulesDestination, WithoutGeoNamesACityIsOnlyItself) {
  RulesServer fixture(kDestinationAds, {});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  EXPECT_EQ(ads_in_one_reply(fixture.server, request_to(std::string("[") + kLisbon + "]"), kVersion20251101),
            (std::set<std::string>{"ad_1", "ad_4"}));
}

TEST(TargetingRulesDestination, AnotherOrNoDestinationServesNoDestinationTargetedAd) {
  RulesServer fixture(kDestinationAds, {kGeoNamesDirFlag});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  for (const std::string& body : {request_to(std::string("[") + kSweden + "]"), request_to("[]"), request_to("null"),
                                  std::string(R"({"placements":[{"key":"slot","count":10}]})")}) {
    SCOPED_TRACE(body);
    EXPECT_EQ(ads_in_one_reply(fixture.server, body, kVersion20251101), (std::set<std::string>{"ad_4"}));
  }
}

TEST(TargetingRulesDestination, Version20250101IgnoresTheRequestDestination) {
  RulesServer fixture(kDestinationAds, {kGeoNamesDirFlag});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  const std::string to_lisbon = request_to(std::string("[") + kLisbon + "]");
  EXPECT_EQ(ads_in_one_reply(fixture.server, to_lisbon, kVersion20250101), (std::set<std::string>{"ad_4"}));
  EXPECT_EQ(ads_in_one_reply(fixture.server, to_lisbon), (std::set<std::string>{"ad_4"})) << "no header: 2025-01-01";
}

TEST(TargetingRulesDestination, ABadDestinationIsRefusedOnlyByTheVersionThatReadsIt) {
  RulesServer fixture(kDestinationAds, {kGeoNamesDirFlag});
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  DecisionClient client(fixture.server);
  const CurlReply bad_items = client.decide(request_to(R"(["lisbon",0,2267057])"), kVersion20251101);
  EXPECT_EQ(bad_items.status, 422);
  EXPECT_TRUE(IsErrorEnvelopeListing(bad_items.body, {{10017, "placements[0].targeting.destination[0]"},
                                                      {10017, "placements[0].targeting.destination[1]"}}));
  const CurlReply not_array = client.decide(request_to(R"("lisbon")"), kVersion20251101);
  EXPECT_EQ(not_array.status, 422);
  EXPECT_TRUE(IsErrorEnvelopeListing(not_array.body, {{10017, "placements[0].targeting.destination"}}));

  // 2025-01-01 does not read the field at all: an unknown field, tolerated.
  for (const char* destination : {R"(["lisbon",0,2267057])", R"("lisbon")", "{}"}) {
    SCOPED_TRACE(destination);
    EXPECT_EQ(ads_in_one_reply(fixture.server, request_to(destination), kVersion20250101),
              (std::set<std::string>{"ad_4"}));
  }
}

// --- GDPR -------------------------------------------------------------------------------

constexpr char kUserId[] = "user-7";
constexpr char kSwedishIp[] = "89.160.20.112";   // GeoIP: SE, flagged EU
constexpr char kBritishIp[] = "81.2.69.142";     // GeoIP: GB (London), not flagged EU
constexpr char kAmericanIp[] = "216.160.83.56";  // GeoIP: US
constexpr char kNorway[] = "3144096";            // EEA, not EU
constexpr char kLondon[] = "2643743";            // a city of the UK
constexpr char kUnitedStates[] = "6252001";

struct GdprServer {
  GdprServer()
      : catalog("catalog.json", test_catalog_json({{1, "slot"}}, {{.id = 1, .placement_ids = {1}}})),
        server(standard_flags({"--catalog=" + catalog.path(), kGeoIpDbFlag, kGeoNamesDirFlag, kTestBaseUrlFlag,
                               state.flag()})) {}
  StateDirWithKeys state;
  TempFile catalog;
  ServerProcess server;
};

// The user id sealed in the impression token of the one creative served for body.
std::optional<std::string> token_user_id(GdprServer& fixture, const std::string& body) {
  DecisionClient client(fixture.server);
  const CurlReply reply = client.decide(body);
  EXPECT_EQ(reply.status, 200) << reply.body;
  const std::vector<std::string> tokens = impression_tokens(reply.body, kTestTrackingPrefix);
  if (tokens.size() != 1) {
    ADD_FAILURE() << "expected one impression URL: " << reply.body;
    return "<no token>";
  }
  std::string storage;
  tracking::TrackingEvent event;
  const ::testing::AssertionResult opened = fixture.state.Open(tokens[0], storage, event);
  if (!opened) {
    ADD_FAILURE() << opened.message();
    return "<unreadable token>";
  }
  EXPECT_EQ(event.kind, tracking::EventKind::kImpression);
  EXPECT_EQ(event.ad_id, 1u);
  if (!event.user_id) return std::nullopt;
  return std::string(*event.user_id);
}

// A request for the one ad, by kUserId, with the given user members and placement geo.
std::string gdpr_request(const std::string& user_members, const std::string& geo_json = "") {
  const std::string targeting = geo_json.empty() ? "" : R"(,"targeting":{"geo":)" + geo_json + "}";
  return R"({"placements":[{"key":"slot","count":1)" + targeting + R"(}],"user":{"id":")" + kUserId + "\"" +
         user_members + "}}";
}

std::string ip_member(const char* ip) { return R"(,"ip":")" + std::string(ip) + "\""; }

TEST(TargetingRulesGdpr, InTheEuByGeoIpTheUserIdNeedsConsent) {
  GdprServer fixture;
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  const std::string ip = ip_member(kSwedishIp);
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip)), std::nullopt) << "no consent";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip + R"(,"consent":{})")), std::nullopt) << "consent without gdpr";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip + R"(,"consent":{"gdpr":null})")), std::nullopt) << "null";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip + R"(,"consent":{"gdpr":false})")), std::nullopt) << "refused";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip + R"(,"consent":{"gdpr":true})")), kUserId) << "granted";
}

TEST(TargetingRulesGdpr, OutsideTheTerritoryTheUserIdTravelsUnlessRefused) {
  GdprServer fixture;
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  const std::string ip = ip_member(kAmericanIp);
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip)), kUserId) << "no consent";
  EXPECT_EQ(token_user_id(fixture, gdpr_request("")), kUserId) << "no IP, no geo: not known to be in the territory";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip + R"(,"consent":{"gdpr":true})")), kUserId) << "granted";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip + R"(,"consent":{"gdpr":false})")), std::nullopt) << "refused";
}

TEST(TargetingRulesGdpr, TheUkIsInTheTerritoryThoughGeoIpDoesNotFlagIt) {
  GdprServer fixture;
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  const std::string ip = ip_member(kBritishIp);
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip)), std::nullopt) << "no consent";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip + R"(,"consent":{"gdpr":true})")), kUserId) << "granted";
}

TEST(TargetingRulesGdpr, AGdprCountryInTheRequestGeoPutsTheUserInTheTerritory) {
  GdprServer fixture;
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  const std::string ip = ip_member(kAmericanIp);
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip, std::string("[") + kNorway + "]")), std::nullopt) << "Norway";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip, std::string("[\"") + kLondon + "\"]")), std::nullopt)
      << "London, widened to the UK";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip, std::string("[") + kUnitedStates + "]")), kUserId)
      << "the US";
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip + R"(,"consent":{"gdpr":true})", std::string("[") + kNorway + "]")),
            kUserId)
      << "Norway, granted";
}

// Published TC strings (LiveRamp/iabconsent's fixtures): the first consents to purposes 1,
// 3, 4 and 7; the second to purposes 1, 3, 6, 7, 8 and 10 (with two more segments); the
// third to none.
constexpr std::string_view kTcPurpose1 = "COvzTO5OvzTO5BRAAAENAPCoALIAADgAAAAAAewAwABAAlAB6ABBFADBQAQA9hAAAcAA";
constexpr std::string_view kTcPurpose1WithSegments =
    "COvzTO5OvzTO5B7ABCENAPCYAKdAADkAAIqIFhwBAAGAAXAFGAsMAhYAgAMAAegBYAEKAAA."
    "IFoEUQQgAIQwgIwQABAEAAAAOIAACAIAAAAQAIAgEAACEAAAAAgAQBAAAAAAAGBAAgAAAAAAAFAAECAAAgAAQARAEQAA"
    "AAAJAAIAAgAAAYQEAAAQmAgBC3ZAYzUw.QE5QAwCvgHyATkA";
constexpr std::string_view kTcNoPurpose =
    "COvzTO5OvzTO5BZAFMENAPCgAAAAAAAAAAwIFoEUQQgAIQwgIwQABAEAAAAOIAACAIAAAAQAIAgEAACEAAAAAgAQBAAA"
    "AAAAGBAAgAAAAAAAFAAECAAAgAAQARAEQAAAAAJAAIAAgAAAYQEAAAQmAgBC3ZAYzUwLQIoghAAQhhARggACAIAAAAcQ"
    "AAEAQAAAAgAQBAIAAEIAAAABAAgCAAAAAAAMCABAAAAAAAAKAAIEAABAAAgAiAIgAAAAASAAQABAAAAwgIAAAhMBACFu"
    "yAxmpgAA";

std::string tc_consent(std::string_view tc_string) {
  return R"(,"consent":{"gdpr":")" + std::string(tc_string) + R"("})";
}

TEST(TargetingRulesGdpr, ATcStringConsentsThroughPurposeOne) {
  GdprServer fixture;
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  const std::string eu = ip_member(kSwedishIp);
  EXPECT_EQ(token_user_id(fixture, gdpr_request(eu + tc_consent(kTcPurpose1))), kUserId);
  EXPECT_EQ(token_user_id(fixture, gdpr_request(eu + tc_consent(kTcPurpose1WithSegments))), kUserId);
  EXPECT_EQ(token_user_id(fixture, gdpr_request(eu + tc_consent(kTcNoPurpose))), std::nullopt);
  // Outside the territory a TC string that refuses purpose 1 is still a refusal.
  EXPECT_EQ(token_user_id(fixture, gdpr_request(ip_member(kAmericanIp) + tc_consent(kTcNoPurpose))),
            std::nullopt);
}

TEST(TargetingRulesGdpr, AStringThatIsNotATcStringIs422With10020) {
  GdprServer fixture;
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  DecisionClient client(fixture.server);
  const std::string truncated(kTcPurpose1.substr(0, 30));
  for (const std::string& text : {std::string("yes"), std::string("BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA"),
                                  truncated, std::string(kTcPurpose1) + "=", std::string(kTcPurpose1) + "."}) {
    SCOPED_TRACE(text);
    const CurlReply reply = client.decide(gdpr_request(ip_member(kSwedishIp) + tc_consent(text)));
    EXPECT_EQ(reply.status, 422);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10020, "user.consent.gdpr"}}));
  }
}

TEST(TargetingRulesGdpr, AConsentOfAnotherTypeIs422With10020) {
  GdprServer fixture;
  ASSERT_TRUE(fixture.server.serving()) << fixture.server.start_error();
  DecisionClient client(fixture.server);
  for (const char* gdpr : {"1", "0", "{}", R"({"granted":true})", "[true]"}) {
    SCOPED_TRACE(gdpr);
    const CurlReply reply =
        client.decide(gdpr_request(ip_member(kSwedishIp) + R"(,"consent":{"gdpr":)" + std::string(gdpr) + "}"));
    EXPECT_EQ(reply.status, 422);
    EXPECT_TRUE(IsErrorEnvelopeListing(reply.body, {{10020, "user.consent.gdpr"}}));
  }
}

}  // namespace
}  // namespace integration
