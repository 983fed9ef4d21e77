// count (10013), advertiserId (10014), templateId (10015), format (10016).
#include "reader_fixture.h"

namespace decision::request {
namespace {

using Count = ReaderTest;

TEST_F(Count, DefaultsToOne) {
  ASSERT_TRUE(read(with_placement_fields(R"("count":null)")).ok());
  EXPECT_EQ(placement().count, 1u);
}

TEST_F(Count, OneToTenIsRead) {
  for (int count = 1; count <= 10; ++count) {
    ASSERT_TRUE(read(with_placement_fields(R"("count":)" + std::to_string(count))).ok());
    EXPECT_EQ(placement().count, static_cast<uint32_t>(count));
  }
}

TEST_F(Count, ZeroIs10013) {
  EXPECT_EQ(only_error(with_placement_fields(R"("count":0)")), (Error{10013, "placements[0].count"}));
  EXPECT_EQ(result_.errors[0].message, "count must be an integer from 1 to 10");
}

TEST_F(Count, ElevenIs10013) {
  EXPECT_EQ(only_error(with_placement_fields(R"("count":11)")), (Error{10013, "placements[0].count"}));
}

TEST_F(Count, NegativeOrHugeIs10013) {
  for (const char* count : {"-1", "-0.0e1", "1e400", "18446744073709551617", "1e19"}) {
    EXPECT_EQ(only_error(with_placement_fields(std::string(R"("count":)") + count)),
              (Error{10013, "placements[0].count"}))
        << count;
  }
}

TEST_F(Count, StringIs10013) {
  EXPECT_EQ(only_error(with_placement_fields(R"("count":"3")")), (Error{10013, "placements[0].count"}));
}

TEST_F(Count, BooleanOrArrayIs10013) {
  EXPECT_EQ(only_error(with_placement_fields(R"("count":true)")), (Error{10013, "placements[0].count"}));
  EXPECT_EQ(only_error(with_placement_fields(R"("count":[3])")), (Error{10013, "placements[0].count"}));
}

TEST_F(Count, FractionIs10013) {
  for (const char* count : {"2.5", "1.0000000000000000001", "25e-1", "0.1"}) {
    EXPECT_EQ(only_error(with_placement_fields(std::string(R"("count":)") + count)),
              (Error{10013, "placements[0].count"}))
        << count;
  }
}

// JSON has one number type: 3, 3.0, 3e0 and 0.3e1 are the same integer value.
TEST_F(Count, IntegralValueWrittenWithFractionOrExponentIsAccepted) {
  for (const char* count : {"3.0", "3e0", "0.3e1", "30E-1", "3.000"}) {
    ASSERT_TRUE(read(with_placement_fields(std::string(R"("count":)") + count)).ok()) << count;
    EXPECT_EQ(placement().count, 3u) << count;
  }
}

using AdvertiserId = ReaderTest;

TEST_F(AdvertiserId, FormAdvertiserIdIsRead) {
  ASSERT_TRUE(read(with_placement_fields(R"("advertiserId":"advertiser_42")")).ok());
  EXPECT_EQ(placement().advertiser_id, 42u);
  ASSERT_TRUE(read(with_placement_fields(R"("advertiserId":"advertiser_18446744073709551615")")).ok());
  EXPECT_EQ(placement().advertiser_id, UINT64_MAX);
}

TEST_F(AdvertiserId, OtherFormIs10014) {
  for (const char* id : {R"("advertiser_")", R"("advertiser_0")", R"("advertiser_-1")",
                         R"("advertiser_1x")", R"("advertiser_042")", R"("Advertiser_1")",
                         R"("42")", "42", R"("template_42")", R"("advertiser_18446744073709551616")",
                         R"(" advertiser_1")", "true", "{}"}) {
    EXPECT_EQ(only_error(with_placement_fields(std::string(R"("advertiserId":)") + id)),
              (Error{10014, "placements[0].advertiserId"}))
        << id;
  }
}

TEST_F(AdvertiserId, NullIsAbsent) {
  ASSERT_TRUE(read(with_placement_fields(R"("advertiserId":null)")).ok());
  EXPECT_FALSE(placement().advertiser_id);
}

using TemplateId = ReaderTest;

TEST_F(TemplateId, FormTemplateIdIsRead) {
  ASSERT_TRUE(read(with_placement_fields(R"("templateId":"template_3")")).ok());
  EXPECT_EQ(placement().template_id, 3u);
}

TEST_F(TemplateId, OtherFormIs10015) {
  for (const char* id : {R"("template_")", R"("template_0")", R"("tmpl_3")", R"("advertiser_3")",
                         "3", R"("template_3.0")"}) {
    EXPECT_EQ(only_error(with_placement_fields(std::string(R"("templateId":)") + id)),
              (Error{10015, "placements[0].templateId"}))
        << id;
  }
}

using Format = ReaderTest;

TEST_F(Format, NativeAndVideoAreRead) {
  ASSERT_TRUE(read(with_placement_fields(R"("format":"native")")).ok());
  EXPECT_EQ(placement().format, AdFormat::kNative);
  ASSERT_TRUE(read(with_placement_fields(R"("format":"video")")).ok());
  EXPECT_EQ(placement().format, AdFormat::kVideo);
  ASSERT_TRUE(read(with_placement_fields(R"("format":null)")).ok());
  EXPECT_FALSE(placement().format);
}

TEST_F(Format, OtherValueIs10016) {
  for (const char* format : {R"("audio")", R"("Native")", R"("")", "1", "[\"video\"]"}) {
    EXPECT_EQ(only_error(with_placement_fields(std::string(R"("format":)") + format)),
              (Error{10016, "placements[0].format"}))
        << format;
  }
}

TEST_F(Format, IsIgnoredWhenTheVersionDoesNotUnderstandIt) {
  for (const char* format : {R"("video")", R"("audio")", "1", R"({"deep":[1,2]})"}) {
    ASSERT_TRUE(read(with_placement_fields(std::string(R"("format":)") + format), v2025_01_01()).ok())
        << format;
    EXPECT_FALSE(placement().format) << format;
  }
}

TEST_F(Format, IgnoredStillMustBeJson) {
  EXPECT_EQ(read(with_placement_fields(R"("format":[1,])"), v2025_01_01()).status,
            ReadStatus::kInvalidJson);
}

}  // namespace
}  // namespace decision::request
