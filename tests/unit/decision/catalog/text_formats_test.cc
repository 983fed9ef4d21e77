// The small text formats of a catalog, each parser on its own.
#include "decision/catalog/text_formats.h"

#include <gtest/gtest.h>

namespace decision::catalog {
namespace {

TEST(Rfc3339, UtcAndOffsetsGiveUnixSeconds) {
  EXPECT_EQ(parse_rfc3339_s("2026-01-01T00:00:00Z"), 1'767'225'600);
  EXPECT_EQ(parse_rfc3339_s("2026-01-01T01:00:00+01:00"), 1'767'225'600);
  EXPECT_EQ(parse_rfc3339_s("2025-12-31T21:00:00-03:00"), 1'767'225'600);
  EXPECT_EQ(parse_rfc3339_s("2026-01-01T00:00:00.999Z"), 1'767'225'600);  // fraction dropped
}

TEST(Rfc3339, AnOffsetIsRequired) {
  EXPECT_EQ(parse_rfc3339_s("2026-01-01T00:00:00"), std::nullopt);
  EXPECT_EQ(parse_rfc3339_s("2026-01-01"), std::nullopt);
  EXPECT_EQ(parse_rfc3339_s("2026-13-01T00:00:00Z"), std::nullopt);
  EXPECT_EQ(parse_rfc3339_s(""), std::nullopt);
}

TEST(ClockMinute, HHMMFromMidnightToTheEndOfTheDay) {
  EXPECT_EQ(parse_clock_minute("00:00"), 0);
  EXPECT_EQ(parse_clock_minute("08:30"), 510);
  EXPECT_EQ(parse_clock_minute("23:59"), 1439);
  EXPECT_EQ(parse_clock_minute("24:00"), 1440);
  for (const char* bad :
       {"24:01", "25:00", "12:60", "8:00", "08:0", "0800", "08:00:00", "", "ab:cd"}) {
    EXPECT_EQ(parse_clock_minute(bad), std::nullopt) << bad;
  }
}

TEST(Weekday, ThreeLetterNamesFromMonday) {
  EXPECT_EQ(parse_weekday("mon"), 0);
  EXPECT_EQ(parse_weekday("Sun"), 6);
  EXPECT_EQ(parse_weekday("monday"), std::nullopt);
}

TEST(SkipOffset, SecondsOrPercent) {
  const auto seconds = parse_skip_offset("01:02:03");
  ASSERT_TRUE(seconds.has_value());
  EXPECT_EQ(seconds->kind, SkipOffset::Kind::kSeconds);
  EXPECT_EQ(seconds->seconds, 3723u);
  const auto percent = parse_skip_offset("100%");
  ASSERT_TRUE(percent.has_value());
  EXPECT_EQ(percent->kind, SkipOffset::Kind::kPercent);
  EXPECT_EQ(percent->percent, 100u);
  EXPECT_EQ(parse_skip_offset("0%")->percent, 0u);
  EXPECT_EQ(parse_skip_offset("0100%"), std::nullopt);
}

TEST(LanguageTag, ShapesAndCase) {
  EXPECT_EQ(normalize_language_tag("en"), "en");
  EXPECT_EQ(normalize_language_tag("pt-br"), "pt-BR");
  EXPECT_EQ(normalize_language_tag("ZH-hant-tw"), "zh-Hant-TW");
  EXPECT_EQ(normalize_language_tag("es-419"), "es-419");
  EXPECT_EQ(normalize_language_tag("en-US-x-twain"), "en-US-x-twain");
  for (const char* bad : {"", "e", "en_US", "en-", "-en", "en--US", "english!", "fr-toolongsubtag",
                          "en-x", "12", "English"}) {
    EXPECT_EQ(normalize_language_tag(bad), std::nullopt) << bad;
  }
}

TEST(HttpUrl, AbsoluteHttpOrHttpsWithAHost) {
  EXPECT_TRUE(is_http_url("https://cdn.example.com/a.png"));
  EXPECT_TRUE(is_http_url("http://localhost:8080"));
  EXPECT_TRUE(is_http_url("HTTPS://example.com?q=[TIMESTAMP]"));
  for (const char* bad :
       {"", "cdn.example.com/a.png", "ftp://example.com", "https://", "https:///path",
        "https://exa mple.com", "javascript:alert(1)", "https://example.com/\n"}) {
    EXPECT_FALSE(is_http_url(bad)) << bad;
  }
}

TEST(MimeType, TypeSlashSubtype) {
  EXPECT_TRUE(is_mime_type("video/mp4"));
  EXPECT_TRUE(is_mime_type("application/x-mpegURL"));
  EXPECT_FALSE(is_mime_type("mp4"));
  EXPECT_FALSE(is_mime_type("video/"));
  EXPECT_FALSE(is_mime_type("video/mp4; codecs=avc1"));
}

TEST(AspectRatio, TwoPositiveIntegers) {
  EXPECT_TRUE(is_aspect_ratio("16:9"));
  EXPECT_TRUE(is_aspect_ratio("1:1"));
  EXPECT_FALSE(is_aspect_ratio("16/9"));
  EXPECT_FALSE(is_aspect_ratio("0:9"));
  EXPECT_FALSE(is_aspect_ratio("16:"));
  EXPECT_FALSE(is_aspect_ratio("1.5:1"));
}

TEST(IanaZoneName, NamesButNeverPaths) {
  EXPECT_TRUE(is_iana_zone_name("Europe/Paris"));
  EXPECT_TRUE(is_iana_zone_name("UTC"));
  EXPECT_TRUE(is_iana_zone_name("America/Argentina/Buenos_Aires"));
  EXPECT_TRUE(is_iana_zone_name("Etc/GMT+3"));
  EXPECT_FALSE(is_iana_zone_name("/etc/passwd"));
  EXPECT_FALSE(is_iana_zone_name("../etc/passwd"));
  EXPECT_FALSE(is_iana_zone_name("Europe//Paris"));
  EXPECT_FALSE(is_iana_zone_name("Fixed/UTC+01:00"));
  EXPECT_FALSE(is_iana_zone_name("localtime"));
  EXPECT_FALSE(is_iana_zone_name("posix/Europe/Paris"));
  EXPECT_FALSE(is_iana_zone_name("Europe/"));
}

}  // namespace
}  // namespace decision::catalog
