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

// Published TC strings (see tcf_consent_test.cc): the IAB specification's example with
// purposes 1, 2 and 3 consented and a disclosed vendors segment; LiveRamp/iabconsent's fixture
// with no purpose consented.
constexpr std::string_view kPurpose1Consented =
    "COvFyGBOvFyGBAbAAAENAPCAAOAAAAAAAAAAAEEUACCKAAA.IFoEUQQgAIQwgIwQABAEAAAAOIAACAIAAAAQAIAgEAA"
    "CEAAAAAgAQBAAAAAAAGBAAgAAAAAAAFAAECAAAgAAQARAEQAAAAAJAAIAAgAAAYQEAAAQmAgBC3ZAYzUw";
constexpr std::string_view kNoPurposeConsented =
    "COvzTO5OvzTO5BZAFMENAPCgAAAAAAAAAAwIFoEUQQgAIQwgIwQABAEAAAAOIAACAIAAAAQAIAgEAACEAAAAAgAQBAAA"
    "AAAAGBAAgAAAAAAAFAAECAAAgAAQARAEQAAAAAJAAIAAgAAAYQEAAAQmAgBC3ZAYzUwLQIoghAAQhhARggACAIAAAAcQ"
    "AAEAQAAAAgAQBAIAAEIAAAABAAgCAAAAAAAMCABAAAAAAAAKAAIEAABAAAgAiAIgAAAAASAAQABAAAAwgIAAAhMBACFu"
    "yAxmpgAA";

std::string with_gdpr(std::string_view gdpr) {
  return with_user(std::string(R"({"consent":{"gdpr":)") + std::string(gdpr) + "}}");
}

std::string with_gdpr_string(std::string_view text) {
  return with_gdpr("\"" + std::string(text) + "\"");
}

TEST_F(UserConsent, GdprConsentStringIsDecodedForPurpose1) {
  ASSERT_TRUE(read(with_gdpr_string(kPurpose1Consented)).ok());
  EXPECT_EQ(request().user.gdpr, GdprConsent::kConsentString);
  EXPECT_EQ(request().user.consent_string, kPurpose1Consented);
  EXPECT_TRUE(request().user.consent_string_purpose1);

  ASSERT_TRUE(read(with_gdpr_string(kNoPurposeConsented)).ok());
  EXPECT_EQ(request().user.gdpr, GdprConsent::kConsentString);
  EXPECT_EQ(request().user.consent_string, kNoPurposeConsented);
  EXPECT_FALSE(request().user.consent_string_purpose1);
}

TEST_F(UserConsent, LastGdprWins) {
  ASSERT_TRUE(read(with_user(std::string(R"({"consent":{"gdpr":")") +
                             std::string(kPurpose1Consented) + R"(","gdpr":false}})"))
                  .ok());
  EXPECT_EQ(request().user.gdpr, GdprConsent::kRefused);
  EXPECT_TRUE(request().user.consent_string.empty());
  EXPECT_FALSE(request().user.consent_string_purpose1);
}

TEST_F(UserConsent, GdprOtherValueIs10020) {
  for (const char* gdpr : {R"("")", R"("abc=")", R"("a..b")", R"(".ab")", R"("ab.")", R"("a b")",
                           R"("a+b/c")", R"("CPc_-8A.IF-_d")", "1", "[]", "{}"}) {
    EXPECT_EQ(only_error(with_gdpr(gdpr)), (Error{10020, "user.consent.gdpr"})) << gdpr;
  }
}

TEST_F(UserConsent, StringThatIsNotATcfV2ConsentStringIs10020WithTheReason) {
  const std::string core(kPurpose1Consented.substr(0, kPurpose1Consented.find('.')));
  const struct {
    std::string text;
    std::string_view reason;
  } cases[] = {
      {"", "a segment is empty"},
      {core + ".", "a segment is empty"},
      {core + "=", "'=' padding is not allowed"},
      {core + "+", "a character is not base64url (A-Z a-z 0-9 - _)"},
      {"BOEFEAyOEFEAyAHABDENAI4AAAB9vABAASA", "version 1, expected 2"},  // TCF v1.1's example
      {"D" + core.substr(1), "version is not 2"},
      {core.substr(0, 30), "the core segment ends inside its fields"},
      {core.substr(0, 18) + "_" + core.substr(19), "consent language is not two letters"},
      {core + "B", "non-zero bits after the core fields"},
      {core + ".A", "segment type is not 1, 2 or 3"},
      {std::string(kMaxConsentStringBytes + 1, 'A'), "longer than 8 KiB"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(only_error(with_gdpr_string(c.text)), (Error{10020, "user.consent.gdpr"})) << c.text;
    ASSERT_EQ(result_.errors.size(), 1u);
    EXPECT_EQ(result_.errors[0].message,
              "gdpr must be true, false or a TCF v2 consent string: " + std::string(c.reason))
        << c.text;
  }
  EXPECT_EQ(only_error(with_gdpr("7")), (Error{10020, "user.consent.gdpr"}));
  EXPECT_EQ(result_.errors[0].message, "gdpr must be true, false or a TCF v2 consent string");
}

TEST_F(UserConsent, LongestConsentStringIsRead) {
  const std::string core(kPurpose1Consented.substr(0, kPurpose1Consented.find('.')));
  const std::string padded = core + std::string(kMaxConsentStringBytes - core.size(), 'A');
  ASSERT_TRUE(read(with_gdpr_string(padded)).ok());
  EXPECT_TRUE(request().user.consent_string_purpose1);
}

TEST_F(UserConsent, NotAnObjectIs10020) {
  EXPECT_EQ(only_error(with_user(R"({"consent":true})")), (Error{10020, "user.consent"}));
}

}  // namespace
}  // namespace decision::request
