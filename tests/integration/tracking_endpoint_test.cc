// GET /v1/tracking over HTTP (docs/tracking.md): every reply and
// code, HEAD, tokens refused at every flipped bit, kinds known and unknown.
#include <memory>

#include "gtest/gtest.h"
#include "tests/integration/json_body.h"
#include "tests/integration/raw_connection.h"
#include "tests/integration/requests.h"
#include "tests/integration/state_dir_waits.h"
#include "tests/integration/token_keys.h"
#include "tests/integration/tracking_flow.h"
#include "tests/integration/utc_days.h"
#include "tests/integration/wall_clock.h"
#include "tracking/tokens/base64url.h"

namespace integration {
namespace {

int error_code(const std::string& body) {
  JsonBody json(body);
  if (!json.ok()) return -1;
  for (simdjson::dom::element e : array_member(json.root(), "errors")) return static_cast<int>(int_member(e, "code").value_or(-1));
  return -1;
}

class TrackingEndpoint : public ::testing::Test {
 protected:
  void start(std::vector<std::string> extra = {}) {
    std::vector<std::string> flags = {"--catalog=" + catalog_.path(), keys_.flag(), "--events-flush=50ms"};
    flags.insert(flags.end(), extra.begin(), extra.end());
    server_ = std::make_unique<ServerProcess>(standard_flags(flags));
    ASSERT_TRUE(server_->serving()) << server_->start_error();
  }
  // The creative of ad `ad` ("ad_1"...) in a decision for user, with all three ads asked for.
  CreativeTokens creative_of(const std::string& ad, std::string_view user = "") {
    const CurlReply reply = decide(*server_, user, 3);
    EXPECT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (c.ad_id == ad) return c;
    }
    ADD_FAILURE() << ad << " not served: " << reply.body;
    return {};
  }
  tracking::TrackingEvent event_of_kind(tracking::EventKind kind) {
    tracking::TrackingEvent event;
    event.kind = kind;
    event.ad_id = 3;
    event.creative_id = 30;
    event.placement_id = 7;
    event.issued_at_s = wall_s();
    event.expires_at_s = event.issued_at_s + 600;
    return event;
  }
  std::vector<LogLine> logged_lines() {
    EXPECT_TRUE(wait_until_logged(*server_));
    return read_event_log(keys_.path());
  }

  TempFile catalog_{"catalog.json", capped_catalog_json()};
  StateDirWithKeys keys_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(TrackingEndpoint, ImpressionIs204WithNoStoreAndTheVersionEchoed) {
  start();
  const CreativeTokens c = creative_of("ad_3");
  const CurlReply reply = call_tracking(*server_, c.impression, "", {"X-Tracking-Version: 2025-11-01"});
  EXPECT_EQ(reply.status, 204);
  EXPECT_EQ(reply.header("Cache-Control"), "no-store");
  EXPECT_EQ(reply.header("X-Tracking-Version"), "2025-11-01");
  EXPECT_TRUE(reply.body.empty());
}

TEST_F(TrackingEndpoint, MissingVersionIsTheOldestActiveOne) {
  start();
  const CurlReply reply = call_tracking(*server_, creative_of("ad_3").impression);
  EXPECT_EQ(reply.status, 204);
  EXPECT_EQ(reply.header("X-Tracking-Version"), "2025-01-01");
}

TEST_F(TrackingEndpoint, BadVersionHeaderIs400With10042BeforeTheTokenIsRead) {
  start();
  // "X-Tracking-Version;" is curl's spelling of the header with an empty value.
  for (const char* bad : {"X-Tracking-Version: latest", "X-Tracking-Version: 2025-1-1",
                          "X-Tracking-Version: >=2025-01-01", "X-Tracking-Version: 2024-01-01", "X-Tracking-Version;"}) {
    const CurlReply reply = call_tracking(*server_, "not-even-a-token", "", {bad});
    EXPECT_EQ(reply.status, 400) << bad;
    EXPECT_EQ(error_code(reply.body), 10042) << bad << ": " << reply.body;
    EXPECT_NE(reply.body.find("active_versions"), std::string::npos);
  }
  const CurlReply repeated = call_tracking(*server_, creative_of("ad_3").impression, "",
                                           {"X-Tracking-Version: 2025-11-01", "X-Tracking-Version: 2025-11-01"});
  EXPECT_EQ(error_code(repeated.body), 10042);
}

TEST_F(TrackingEndpoint, SunsetVersionIs410With10043AndDeprecatedOneIsServedWithItsHeaders) {
  const std::string guide = "https://docs.example.com/migrate";
  const TempFile versions("versions.json",
                          R"([{"version":"2025-01-01","release":"2025-01-01","maintenance":")" + utc_date(-200) +
                              R"(","deprecated":")" + utc_date(-100) + R"(","sunset":")" + utc_date(-10) +
                              R"(","migrationGuide":")" + guide + R"("},{"version":"2025-11-01","release":"2025-11-01",)" +
                              R"("maintenance":")" + utc_date(-20) + R"(","deprecated":")" + utc_date(-5) +
                              R"(","sunset":")" + utc_date(30) + R"("}])");
  start({"--versions=" + versions.path()});
  const CreativeTokens c = creative_of("ad_3");
  const CurlReply sunset = call_tracking(*server_, c.impression, "", {"X-Tracking-Version: 2025-01-01"});
  EXPECT_EQ(sunset.status, 410);
  EXPECT_EQ(error_code(sunset.body), 10043);
  const CurlReply deprecated = call_tracking(*server_, c.impression, "", {"X-Tracking-Version: 2025-11-01"});
  EXPECT_EQ(deprecated.status, 204);
  EXPECT_EQ(deprecated.header("X-API-Deprecated"), "true");
  EXPECT_FALSE(deprecated.header("Sunset").empty());
}

TEST_F(TrackingEndpoint, ClickRedirectsToTheCreativesClickUrl) {
  start();
  const CurlReply reply = call_tracking(*server_, creative_of("ad_1").click);
  EXPECT_EQ(reply.status, 302);
  EXPECT_EQ(reply.header("Location"), "https://one.example.com/landing?a=1&b=2");
  EXPECT_EQ(reply.header("Cache-Control"), "no-store");
}

TEST_F(TrackingEndpoint, ClickOfACreativeWithoutClickUrlIs204) {
  start();
  const CurlReply reply = call_tracking(*server_, creative_of("ad_2").click);
  EXPECT_EQ(reply.status, 204);
  EXPECT_TRUE(reply.header("Location").empty());
}

TEST_F(TrackingEndpoint, ClickRedirectsAfterTheAdHasLeftTheCatalog) {
  start();
  const std::string click = creative_of("ad_1").click;
  server_.reset();  // the same keys.json serves the next process
  const TempFile other("other.json", R"({"revision":"other","defaultLanguage":"en",
    "priorities":[{"key":"standard","weight":1}],"advertisers":[{"id":1,"name":"One"}],
    "templates":[{"id":1,"key":"card"}],"placements":[{"id":7,"key":"home_top"}],
    "ads":[{"id":9,"advertiserId":1,"placementIds":[7],"templateId":1,"priority":"standard","weight":1,
            "format":"native","start":"2020-01-01T00:00:00Z",
            "creatives":[{"id":90,"contents":{"en":[{"key":"t","value":"x"}]}}]}]})");
  server_ = std::make_unique<ServerProcess>(standard_flags({"--catalog=" + other.path(), keys_.flag()}));
  ASSERT_TRUE(server_->serving()) << server_->start_error();
  const CurlReply reply = call_tracking(*server_, click);
  EXPECT_EQ(reply.status, 302);
  EXPECT_EQ(reply.header("Location"), "https://one.example.com/landing?a=1&b=2");
}

TEST_F(TrackingEndpoint, CustomEventIs204AndLoggedByName) {
  start();
  const CreativeTokens c = creative_of("ad_3");
  ASSERT_EQ(c.custom.count("add_to_cart"), 1u);
  EXPECT_EQ(call_tracking(*server_, c.custom.at("add_to_cart")).status, 204);
  bool logged = false;
  for (const LogLine& l : logged_lines()) logged |= l.kind == "custom" && l.event == "add_to_cart" && l.ad == 3;
  EXPECT_TRUE(logged);
}

TEST_F(TrackingEndpoint, HeadIsServedAsGetWithoutABody) {
  start();
  const CreativeTokens c = creative_of("ad_1");
  RawConnection connection(server_->public_port());
  ASSERT_TRUE(connection.send("HEAD /v1/tracking?t=" + c.click + " HTTP/1.1\r\nHost: t\r\n\r\n"));
  const std::optional<HttpReply> click = connection.read_reply_to_head();
  ASSERT_TRUE(click) << connection.last_error();
  EXPECT_EQ(click->status, 302);
  EXPECT_EQ(click->header("Location"), "https://one.example.com/landing?a=1&b=2");
  EXPECT_TRUE(click->body.empty());
  ASSERT_TRUE(connection.send("HEAD /v1/tracking?t=garbage HTTP/1.1\r\nHost: t\r\n\r\n"));
  const std::optional<HttpReply> bad = connection.read_reply_to_head();
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_TRUE(bad->body.empty());
}

TEST_F(TrackingEndpoint, MissingRepeatedOrMalformedTokenIs400With10050) {
  start();
  const std::string token = creative_of("ad_3").impression;
  CurlSession session;
  for (const std::string& query : {std::string(""), std::string("?t="), std::string("?x=1"),
                                   "?t=" + token + "&t=" + token, std::string("?t=%%%"), std::string("?t=AAAA"),
                                   "?t=" + token + "=", "?t=" + token.substr(0, token.size() - 1)}) {
    const CurlReply reply = session.get(server_->public_url("/v1/tracking" + query));
    EXPECT_EQ(reply.status, 400) << query;
    EXPECT_EQ(error_code(reply.body), 10050) << query << ": " << reply.body;
  }
}

TEST_F(TrackingEndpoint, EveryFlippedBitOfATokenIsRefused) {
  start();
  const std::string token = creative_of("ad_1", "u-flip").click;
  std::string raw(token.size(), '\0');
  const std::optional<size_t> size = tracking::base64url_decode(token, std::span<uint8_t>(reinterpret_cast<uint8_t*>(raw.data()), raw.size()));
  ASSERT_TRUE(size);
  raw.resize(*size);
  RawConnection connection(server_->public_port());
  for (size_t byte = 0; byte < raw.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string flipped = raw;
      flipped[byte] = static_cast<char>(flipped[byte] ^ (1 << bit));
      std::string text;
      tracking::base64url_encode(flipped, text);
      ASSERT_TRUE(connection.send(get_request("/v1/tracking?t=" + text)));
      const std::optional<HttpReply> reply = connection.read_reply();
      ASSERT_TRUE(reply) << connection.last_error();
      EXPECT_EQ(reply->status, 400) << "byte " << byte << " bit " << bit;
    }
  }
}

TEST_F(TrackingEndpoint, TokenSealedWithKeysTheServerDoesNotHoldIs400) {
  StateDirWithKeys foreign;  // the same fixed keys: start the server with fresh ones instead
  server_ = std::make_unique<ServerProcess>(standard_flags({"--catalog=" + catalog_.path()}));
  ASSERT_TRUE(server_->serving());
  const CurlReply reply = call_tracking(*server_, foreign.Seal(event_of_kind(tracking::EventKind::kImpression)));
  EXPECT_EQ(reply.status, 400);
  EXPECT_EQ(error_code(reply.body), 10050);
}

TEST_F(TrackingEndpoint, ExpiredTokenIs410With10051) {
  start({"--tracking-ttl=1s"});
  const CreativeTokens c = creative_of("ad_1");
  sleep_until_sealed_ones_expire(1);  // --tracking-ttl has no shorter setting: tokens count whole seconds
  for (const std::string& token : {c.impression, c.click}) {
    const CurlReply reply = call_tracking(*server_, token);
    EXPECT_EQ(reply.status, 410);
    EXPECT_EQ(error_code(reply.body), 10051) << reply.body;
  }
}

TEST_F(TrackingEndpoint, KindsThisBuildDoesNotKnowAreAcceptedAndLogged) {
  start();
  tracking::TrackingEvent future = event_of_kind(static_cast<tracking::EventKind>(77));
  future.extra = "from a newer build";
  EXPECT_EQ(call_tracking(*server_, keys_.Seal(future)).status, 204);
  EXPECT_EQ(call_tracking(*server_, keys_.Seal(event_of_kind(tracking::EventKind::kVerificationNotExecuted))).status, 204);
  int unknown = 0, verification = 0;
  for (const LogLine& l : logged_lines()) {
    unknown += l.kind == "unknown" ? 1 : 0;
    verification += l.kind == "verification_not_executed" ? 1 : 0;
  }
  EXPECT_EQ(unknown, 1);
  EXPECT_EQ(verification, 1);
}

TEST_F(TrackingEndpoint, PlayerErrorIsLoggedWithItsCodeOr900) {
  start();
  const std::string token = keys_.Seal(event_of_kind(tracking::EventKind::kError));
  EXPECT_EQ(call_tracking(*server_, token, "&code=405").status, 204);
  EXPECT_EQ(call_tracking(*server_, token, "&code=[ERRORCODE]").status, 204);
  EXPECT_EQ(call_tracking(*server_, token, "&code=12345").status, 204);
  std::multiset<int64_t> codes;
  for (const LogLine& l : logged_lines()) {
    if (l.kind == "error") codes.insert(l.code);
  }
  EXPECT_EQ(codes, (std::multiset<int64_t>{405, 900, 900}));
}

}  // namespace
}  // namespace integration
