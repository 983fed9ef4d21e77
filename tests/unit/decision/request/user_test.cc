// user (10020): id, ip, timezone, consent.gdpr.
#include "reader_fixture.h"

namespace decision::request {
namespace {

using UserObject = ReaderTest;

TEST_F(UserObject, FieldsAreRead) {
  ASSERT_TRUE(read(with_user(R"({"id":"u-1","ip":"2a02:cfc0::1","timezone":"Europe/Paris",
                                 "consent":{"gdpr":true}})")).ok());
  const User& u = request().user;
  EXPECT_TRUE(request().has_user);
  EXPECT_EQ(u.id, "u-1");
  EXPECT_EQ(u.ip.family, IpAddress::Family::kV6);
  EXPECT_EQ(u.ip.bytes[0], 0x2a);
  EXPECT_EQ(u.ip.bytes[1], 0x02);
  EXPECT_EQ(u.ip.bytes[15], 0x01);
  EXPECT_EQ(u.timezone_name, "Europe/Paris");
  EXPECT_EQ(u.time_zone.name(), "Europe/Paris");
  EXPECT_EQ(u.gdpr, GdprConsent::kGranted);
}

TEST_F(UserObject, EmptyOrNullIsNoUserData) {
  ASSERT_TRUE(read(with_user("{}")).ok());
  EXPECT_TRUE(request().has_user);
  EXPECT_FALSE(request().user.id);
  ASSERT_TRUE(read(with_user("null")).ok());
  EXPECT_FALSE(request().has_user);
}

TEST_F(UserObject, NotAnObjectIs10020) {
  EXPECT_EQ(only_error(with_user(R"("u-1")")), (Error{10020, "user"}));
  EXPECT_EQ(only_error(with_user("[]")), (Error{10020, "user"}));
}

using UserId = ReaderTest;

TEST_F(UserId, NotAStringIs10020) {
  EXPECT_EQ(only_error(with_user(R"({"id":42})")), (Error{10020, "user.id"}));
  EXPECT_EQ(only_error(with_user(R"({"id":{"x":1}})")), (Error{10020, "user.id"}));
}

TEST_F(UserId, EmptyOrLongerThan256BytesIs10020) {
  EXPECT_EQ(only_error(with_user(R"({"id":""})")), (Error{10020, "user.id"}));
  ASSERT_TRUE(read(with_user(R"({"id":")" + std::string(256, 'u') + R"("})")).ok());
  EXPECT_EQ(only_error(with_user(R"({"id":")" + std::string(257, 'u') + R"("})")),
            (Error{10020, "user.id"}));
}

using UserIp = ReaderTest;

TEST_F(UserIp, V4AndV6LiteralsAreRead) {
  ASSERT_TRUE(read(with_user(R"({"ip":"81.2.69.142"})")).ok());
  EXPECT_EQ(request().user.ip.family, IpAddress::Family::kV4);
  EXPECT_EQ(request().user.ip.bytes[0], 81);
  EXPECT_EQ(request().user.ip.bytes[1], 2);
  ASSERT_TRUE(read(with_user(R"({"ip":"::ffff:81.2.69.142"})")).ok());
  EXPECT_EQ(request().user.ip.family, IpAddress::Family::kV6);
  EXPECT_EQ(request().user.ip.bytes[12], 81);
  ASSERT_TRUE(read(with_user(R"({"ip":"::1"})")).ok());
  EXPECT_EQ(request().user.ip.text, "::1");
}

TEST_F(UserIp, AnythingElseIs10020) {
  for (const char* ip : {R"("")", R"("1.2.3")", R"("256.1.1.1")", R"("01.2.3.4")", R"("1.2.3.4 ")",
                         R"("::g")", R"("[::1]")", R"("fe80::1%eth0")", R"("1.2.3.4:80")",
                         R"("localhost")", R"("1.2.3.4\u0000")", "16909060", "true"}) {
    EXPECT_EQ(only_error(with_user(std::string(R"({"ip":)") + ip + "}")), (Error{10020, "user.ip"}))
        << ip;
  }
}

using UserTimezone = ReaderTest;

TEST_F(UserTimezone, IanaNamesAreRead) {
  for (const char* zone : {"Europe/Paris", "UTC", "America/Argentina/Buenos_Aires", "Etc/GMT+5",
                           "America/Port-au-Prince", "EST5EDT"}) {
    ASSERT_TRUE(read(with_user(std::string(R"({"timezone":")") + zone + "\"}")).ok()) << zone;
    EXPECT_EQ(request().user.timezone_name, zone);
    EXPECT_EQ(request().user.time_zone.name(), zone);
  }
}

TEST_F(UserTimezone, UnknownNameIs10020) {
  for (const char* zone : {"Mars/Olympus_Mons", "europe/paris", "", "/etc/passwd",
                           "../../../../etc/passwd", "Europe/../Europe/Paris", "localtime",
                           "posix/Europe/Paris", "Europe/Paris/", "Fixed/UTC+05:00", "+01:00",
                           "Europe//Paris", "Europe", "America/Argentina"}) {
    EXPECT_EQ(only_error(with_user(std::string(R"({"timezone":")") + zone + "\"}")),
              (Error{10020, "user.timezone"}))
        << zone;
  }
  EXPECT_EQ(only_error(with_user(R"({"timezone":3600})")), (Error{10020, "user.timezone"}));
}

TEST_F(UserTimezone, RepeatedNameCostsNoFileAccess) {
  ASSERT_TRUE(read(with_user(R"({"timezone":"Asia/Tokyo"})")).ok());
  read(with_user(R"({"timezone":"Nowhere/Atlantis"})"));
  const uint64_t loads = reader_.time_zones().loads();
  for (int i = 0; i < 10; ++i) {
    ASSERT_TRUE(read(with_user(R"({"timezone":"Asia/Tokyo"})")).ok());
    read(with_user(R"({"timezone":"Nowhere/Atlantis"})"));
    EXPECT_EQ(result_.status, ReadStatus::kInvalidRequest);
  }
  EXPECT_EQ(reader_.time_zones().loads(), loads);
}

using UserConsent = ReaderTest;

TEST_F(UserConsent, GdprBooleanIsRead) {
  ASSERT_TRUE(read(with_user(R"({"consent":{"gdpr":false}})")).ok());
  EXPECT_EQ(request().user.gdpr, GdprConsent::kRefused);
  ASSERT_TRUE(read(with_user(R"({"consent":{"gdpr":null}})")).ok());
  EXPECT_EQ(request().user.gdpr, GdprConsent::kAbsent);
  ASSERT_TRUE(read(with_user(R"({"consent":{}})")).ok());
  EXPECT_EQ(request().user.gdpr, GdprConsent::kAbsent);
}

TEST_F(UserConsent, GdprConsentStringIsKeptUndecoded) {
  ASSERT_TRUE(read(with_user(R"({"consent":{"gdpr":"COvFyGBOvFyGBAbAAAENAPCAAOAAAAAAAAAAAEEUACCKAAA"}})")).ok());
  EXPECT_EQ(request().user.gdpr, GdprConsent::kConsentString);
  EXPECT_EQ(request().user.consent_string, "COvFyGBOvFyGBAbAAAENAPCAAOAAAAAAAAAAAEEUACCKAAA");
  ASSERT_TRUE(read(with_user(R"({"consent":{"gdpr":"CPc_-8A.IF-_d"}})")).ok());
}

TEST_F(UserConsent, GdprOtherValueIs10020) {
  for (const char* gdpr : {R"("")", R"("abc=")", R"("a..b")", R"(".ab")", R"("ab.")", R"("a b")",
                           R"("a+b/c")", "1", "[]", "{}"}) {
    EXPECT_EQ(only_error(with_user(std::string(R"({"consent":{"gdpr":)") + gdpr + "}}")),
              (Error{10020, "user.consent.gdpr"}))
        << gdpr;
  }
}

TEST_F(UserConsent, NotAnObjectIs10020) {
  EXPECT_EQ(only_error(with_user(R"({"consent":true})")), (Error{10020, "user.consent"}));
}

}  // namespace
}  // namespace decision::request
