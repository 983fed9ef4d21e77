// The two ends of the request shape: the minimal request and one with every field.
#include "reader_fixture.h"

namespace decision::request {
namespace {

using MinimalRequest = ReaderTest;

TEST_F(MinimalRequest, ReadsWithDefaults) {
  ASSERT_TRUE(read(R"({"placements":[{"key":"home_top"}]})").ok());
  ASSERT_EQ(request().placements().size(), 1u);
  const PlacementRequest& p = placement();
  EXPECT_EQ(p.key, "home_top");
  EXPECT_EQ(p.count, 1u);
  EXPECT_FALSE(p.advertiser_id);
  EXPECT_FALSE(p.template_id);
  EXPECT_FALSE(p.format);
  EXPECT_TRUE(p.targeting.geo().empty());
  EXPECT_TRUE(p.targeting.location().empty());
  EXPECT_TRUE(p.targeting.custom().empty());
  EXPECT_TRUE(p.targeting.custom_json.empty());
  EXPECT_TRUE(p.targeting.destination().empty());
  EXPECT_FALSE(request().has_user);
  EXPECT_FALSE(request().user.id);
  EXPECT_EQ(request().user.ip.family, IpAddress::Family::kNone);
  EXPECT_TRUE(request().user.timezone_name.empty());
  EXPECT_EQ(request().user.gdpr, GdprConsent::kAbsent);
  EXPECT_TRUE(request().device_json.empty());
  EXPECT_TRUE(request().app_json.empty());
  EXPECT_EQ(result_.http_status(), 200);
  EXPECT_TRUE(result_.errors.empty());
}

TEST_F(MinimalRequest, ReadingAgainStartsFromEmpty) {
  ASSERT_TRUE(read(R"({"placements":[{"key":"a","count":3},{"key":"b"}],"user":{"id":"u"},
                      "device":{"os":"ios"}})").ok());
  ASSERT_TRUE(read(R"({"placements":[{"key":"c"}]})").ok());
  ASSERT_EQ(request().placements().size(), 1u);
  EXPECT_EQ(placement().key, "c");
  EXPECT_EQ(placement().count, 1u);
  EXPECT_FALSE(request().has_user);
  EXPECT_TRUE(request().device_json.empty());
}

using FullRequest = ReaderTest;

TEST_F(FullRequest, ReadsEveryField) {
  const std::string body = R"({
    "placements": [
      {
        "key": "home_top",
        "count": 3,
        "advertiserId": "advertiser_42",
        "templateId": "template_3",
        "format": "video",
        "targeting": {
          "geo": [2988507, "3017382"],
          "location": [{"lat": 48.8566, "lon": 2.3522, "radius": 25},
                       {"latitude": -33.5, "longitude": 151.25, "radiusKm": 0.5}],
          "custom": {"tier": "gold", "age": 42, "vip": true, "tags": ["a", 1.5, false]},
          "destination": [2267057]
        }
      },
      {"key": "sidebar"}
    ],
    "user": {
      "id": "user-123",
      "ip": "89.160.20.112",
      "timezone": "Europe/Stockholm",
      "consent": {"gdpr": "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA.YAAAAAAAAAAA"}
    },
    "device": {"os": "ios", "model": "iPhone15,2"},
    "app": {"name": "News", "version": "5.1", "bundle": "com.example.news"}
  })";
  ASSERT_TRUE(read(body).ok()) << ::testing::PrintToString(errors());
  ASSERT_EQ(request().placements().size(), 2u);
  const PlacementRequest& p = placement(0);
  EXPECT_EQ(p.key, "home_top");
  EXPECT_EQ(p.count, 3u);
  EXPECT_EQ(p.advertiser_id, 42u);
  EXPECT_EQ(p.template_id, 3u);
  EXPECT_EQ(p.format, AdFormat::kVideo);

  const decision::request::Targeting& t = p.targeting;  // qualified: a fixture elsewhere is named Targeting
  EXPECT_EQ(std::vector<uint64_t>(t.geo().begin(), t.geo().end()),
            (std::vector<uint64_t>{2988507, 3017382}));
  ASSERT_EQ(t.location().size(), 2u);
  EXPECT_DOUBLE_EQ(t.location()[0].lat_deg, 48.8566);
  EXPECT_DOUBLE_EQ(t.location()[0].lon_deg, 2.3522);
  EXPECT_DOUBLE_EQ(t.location()[0].radius_km, 25);
  EXPECT_DOUBLE_EQ(t.location()[1].lat_deg, -33.5);
  EXPECT_DOUBLE_EQ(t.location()[1].lon_deg, 151.25);
  EXPECT_DOUBLE_EQ(t.location()[1].radius_km, 0.5);
  EXPECT_EQ(t.custom_json, R"({"tier": "gold", "age": 42, "vip": true, "tags": ["a", 1.5, false]})");
  ASSERT_EQ(t.custom().size(), 4u);
  EXPECT_EQ(t.custom()[0].key, "tier");
  EXPECT_EQ(t.custom()[0].value.kind, CustomKind::kString);
  EXPECT_EQ(t.custom()[0].value.text, "gold");
  EXPECT_EQ(t.custom()[1].value.kind, CustomKind::kNumber);
  EXPECT_EQ(t.custom()[1].value.number, 42);
  EXPECT_EQ(t.custom()[1].value.text, "42");
  EXPECT_EQ(t.custom()[2].value.kind, CustomKind::kBool);
  EXPECT_TRUE(t.custom()[2].value.boolean);
  EXPECT_EQ(t.custom()[3].value.kind, CustomKind::kArray);
  EXPECT_EQ(t.custom()[3].value.text, R"(["a", 1.5, false])");
  ASSERT_EQ(t.items(t.custom()[3]).size(), 3u);
  EXPECT_EQ(t.items(t.custom()[3])[0].text, "a");
  EXPECT_EQ(t.items(t.custom()[3])[1].number, 1.5);
  EXPECT_FALSE(t.items(t.custom()[3])[2].boolean);
  EXPECT_EQ(std::vector<uint64_t>(t.destination().begin(), t.destination().end()),
            (std::vector<uint64_t>{2267057}));

  EXPECT_EQ(placement(1).key, "sidebar");
  EXPECT_EQ(placement(1).count, 1u);
  EXPECT_TRUE(placement(1).targeting.geo().empty());

  const User& u = request().user;
  EXPECT_TRUE(request().has_user);
  EXPECT_EQ(u.id, "user-123");
  EXPECT_EQ(u.ip.family, IpAddress::Family::kV4);
  EXPECT_EQ(u.ip.text, "89.160.20.112");
  EXPECT_EQ(u.ip.bytes[0], 89);
  EXPECT_EQ(u.ip.bytes[3], 112);
  EXPECT_EQ(u.timezone_name, "Europe/Stockholm");
  EXPECT_EQ(u.time_zone.name(), "Europe/Stockholm");
  EXPECT_EQ(u.gdpr, GdprConsent::kConsentString);
  EXPECT_EQ(u.consent_string, "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA.YAAAAAAAAAAA");
  EXPECT_EQ(request().device_json, R"({"os": "ios", "model": "iPhone15,2"})");
  EXPECT_EQ(request().app_json, R"({"name": "News", "version": "5.1", "bundle": "com.example.news"})");
}

}  // namespace
}  // namespace decision::request
