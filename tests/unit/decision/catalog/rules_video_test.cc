// docs/catalog.md ("Video") and docs/video.md: video ads need a video object with a
// delivery mode and media files; skipOffset is HH:MM:SS or <n>%.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using testing::design_video_example;
using testing::edit;
using ::testing::ElementsAre;
using testing::errors_of;
using testing::kDesignExample;
using testing::load_ok;

constexpr std::string_view kMediaFile =
    R"({"url": "https://cdn.example.com/v/1.mp4", "type": "video/mp4",
                  "width": 1280, "height": 720, "bitrate": 2500})";

std::string with_video(std::string_view from, std::string_view to) {
  return edit(design_video_example(), from, to);
}

TEST(VideoRule, VideoAdsNeedAVideoObject) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("format": "native")", R"("format": "video")")),
              ElementsAre("ads[0].creatives[0].video: is required"));
}

TEST(VideoRule, DeliveryIsVastXmlVastTagOrJson) {
  EXPECT_THAT(
      errors_of(with_video(R"("delivery": "vast_xml")", R"("delivery": "vpaid")")),
      ElementsAre("ads[0].creatives[0].video.delivery: must be vast_xml, vast_tag or json"));
  EXPECT_THAT(errors_of(with_video(R"("delivery": "vast_xml",)", "")),
              ElementsAre("ads[0].creatives[0].video.delivery: is required"));
  const auto catalog =
      load_ok(with_video(R"("delivery": "vast_xml")", R"("delivery": "vast_tag")"));
  ASSERT_NE(catalog, nullptr);
  EXPECT_EQ(catalog->ads()[0].creatives[0].video->delivery, VideoDelivery::kVastTag);
}

TEST(VideoRule, AtLeastOneMediaFile) {
  EXPECT_THAT(
      errors_of(with_video(std::string("[") + std::string(kMediaFile) + "]", "[]")),
      ElementsAre("ads[0].creatives[0].video.mediaFiles: must hold at least one media file"));
}

TEST(VideoRule, MediaFilesHaveUrlTypeWidthAndHeight) {
  EXPECT_THAT(
      errors_of(with_video(kMediaFile, R"({"url": "cdn/1.mp4", "type": "mp4", "width": 0})")),
      ElementsAre(
          "ads[0].creatives[0].video.mediaFiles[0].url: must be an absolute http or https URL",
          "ads[0].creatives[0].video.mediaFiles[0].type: must be a MIME type such as video/mp4",
          "ads[0].creatives[0].video.mediaFiles[0].width: must be an integer in 1..16384",
          "ads[0].creatives[0].video.mediaFiles[0].height: is required"));
}

TEST(VideoRule, DurationIsPositive) {
  EXPECT_THAT(errors_of(with_video(R"("duration": 30,)", R"("duration": 0,)")),
              ElementsAre("ads[0].creatives[0].video.duration: must be greater than 0"));
  EXPECT_THAT(errors_of(with_video(R"("duration": 30,)", "")),
              ElementsAre("ads[0].creatives[0].video.duration: is required"));
}

TEST(VideoRule, AspectRatioIsWidthColonHeight) {
  EXPECT_THAT(errors_of(with_video(R"("aspectRatio": "16:9")", R"("aspectRatio": "16/9")")),
              ElementsAre("ads[0].creatives[0].video.aspectRatio: must be <w>:<h> such as 16:9"));
}

TEST(SkipOffsetRule, SkipOffsetIsHHMMSSOrPercent) {
  for (const char* bad :
       {"5s", "5", "00:00:5", "00:60:00", "00:00:60", "101%", "-1%", "%", "2.5%"}) {
    EXPECT_THAT(errors_of(with_video(R"("skipOffset": "00:00:05")",
                                     std::string(R"("skipOffset": ")") + bad + "\"")),
                ElementsAre("ads[0].creatives[0].video.skipOffset: must be HH:MM:SS or <n>%"))
        << bad;
  }
}

TEST(SkipOffsetRule, PercentIsParsedIntoPercent) {
  const auto catalog = load_ok(with_video(R"("skipOffset": "00:00:05")", R"("skipOffset": "25%")"));
  ASSERT_NE(catalog, nullptr);
  const Video& video = *catalog->ads()[0].creatives[0].video;
  EXPECT_EQ(video.skip_offset.kind, SkipOffset::Kind::kPercent);
  EXPECT_EQ(video.skip_offset.percent, 25u);
  EXPECT_EQ(video.skip_offset_s(), 7.5);
}

TEST(SkipOffsetRule, NoSkipOffsetIsNotSkippable) {
  const auto catalog = load_ok(with_video(R"("skipOffset": "00:00:05",)", ""));
  ASSERT_NE(catalog, nullptr);
  EXPECT_FALSE(catalog->ads()[0].creatives[0].video->skippable());
  EXPECT_EQ(catalog->ads()[0].creatives[0].video->skip_offset_s(), std::nullopt);
}

TEST(SkipOffsetRule, SkipOffsetIsWithinTheVideo) {
  EXPECT_THAT(
      errors_of(with_video(R"("skipOffset": "00:00:05")", R"("skipOffset": "00:01:00")")),
      ElementsAre(
          "ads[0].creatives[0].video.skipOffset: is after the end of the video (duration 30 s)"));
}

TEST(VideoRule, CompanionsHaveSizeAndImage) {
  EXPECT_THAT(errors_of(with_video(R"("imageUrl": "https://cdn.example.com/c.png",)", "")),
              ElementsAre("ads[0].creatives[0].video.companions[0].imageUrl: is required"));
}

TEST(VideoRule, DurationStaysBelowADayForVastsClockType) {
  // VAST's Duration is an xs:time, whose hours stop at 23.
  EXPECT_THAT(errors_of(with_video(R"("duration": 30,)", R"("duration": 86400,)")),
              ElementsAre("ads[0].creatives[0].video.duration: must be a number in 0..86399"));
  EXPECT_NE(load_ok(with_video(R"("duration": 30,)", R"("duration": 86399,)")), nullptr);
}

TEST(VideoRule, MediaDeliveryIsGivenOrJudgedFromTheType) {
  const auto catalog = load_ok(with_video(R"("bitrate": 2500})", R"("bitrate": 2500, "delivery": "streaming"})"));
  ASSERT_NE(catalog, nullptr);
  EXPECT_TRUE(catalog->ads()[0].creatives[0].video->media_files[0].streaming);
  EXPECT_FALSE(load_ok(design_video_example())->ads()[0].creatives[0].video->media_files[0].streaming);
  const auto hls = load_ok(with_video(R"("type": "video/mp4")", R"("type": "application/x-mpegURL")"));
  ASSERT_NE(hls, nullptr);
  EXPECT_TRUE(hls->ads()[0].creatives[0].video->media_files[0].streaming);
  EXPECT_THAT(errors_of(with_video(R"("bitrate": 2500})", R"("bitrate": 2500, "delivery": "dash"})")),
              ElementsAre("ads[0].creatives[0].video.mediaFiles[0].delivery: must be progressive or streaming"));
}

TEST(VideoRule, CompanionImageTypeIsGivenOrJudgedFromTheUrl) {
  EXPECT_EQ(load_ok(design_video_example())->ads()[0].creatives[0].video->companions[0].image_type, "image/png");
  const auto given = load_ok(with_video(R"("imageUrl": "https://cdn.example.com/c.png",)",
                                        R"("imageUrl": "https://cdn.example.com/c", "type": "image/webp",)"));
  ASSERT_NE(given, nullptr);
  EXPECT_EQ(given->ads()[0].creatives[0].video->companions[0].image_type, "image/webp");
  const auto unknown = load_ok(with_video(R"("imageUrl": "https://cdn.example.com/c.png",)",
                                          R"("imageUrl": "https://cdn.example.com/c.php?x=1.png",)"));
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->ads()[0].creatives[0].video->companions[0].image_type, "image/*");
  EXPECT_THAT(errors_of(with_video(R"("imageUrl": "https://cdn.example.com/c.png",)",
                                   R"("imageUrl": "https://cdn.example.com/c.png", "type": "text/html",)")),
              ElementsAre("ads[0].creatives[0].video.companions[0].type: must be an image MIME type such as image/png"));
}

TEST(VerificationRule, BrowserOptionalIsABooleanFalseByDefault) {
  EXPECT_FALSE(load_ok(kDesignExample)->ads()[0].creatives[0].verification[0].browser_optional);
  const auto optional = load_ok(edit(kDesignExample, R"("verificationParameters": "campaign=1001")",
                                     R"("verificationParameters": "campaign=1001", "browserOptional": true)"));
  ASSERT_NE(optional, nullptr);
  EXPECT_TRUE(optional->ads()[0].creatives[0].verification[0].browser_optional);
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("verificationParameters": "campaign=1001")",
                             R"("verificationParameters": "campaign=1001", "browserOptional": "yes")")),
              ElementsAre("ads[0].creatives[0].verification[0].browserOptional: must be true or false"));
}

TEST(VerificationRule, VendorKeyFitsAVerificationToken) {
  EXPECT_THAT(errors_of(edit(kDesignExample, R"("vendorKey": "iabtechlab.com-omid")",
                             R"("vendorKey": ")" + std::string(257, 'v') + R"(")")),
              ElementsAre("ads[0].creatives[0].verification[0].vendorKey: must be at most 256 bytes"));
}

}  // namespace
}  // namespace decision::catalog
