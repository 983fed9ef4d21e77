// How a refused catalog is reported: every error together, each at its JSON path; a
// syntax error with its line and column; unknown fields ignored.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "decision/catalog/limits.h"
#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using testing::design_video_example;
using testing::edit;
using ::testing::ElementsAre;
using testing::errors_of;
using ::testing::HasSubstr;
using testing::kDesignExample;
using testing::load_ok;

TEST(LoadErrors, EveryErrorIsReportedTogether) {
  std::string catalog = edit(kDesignExample, R"("weight": 10,)", R"("weight": 0,)");
  catalog = edit(catalog, R"("advertiserId": 42)", R"("advertiserId": 43)");
  catalog = edit(catalog, R"("start": "08:00")", R"("start": "8am")");
  catalog = edit(catalog, R"("defaultLanguage": "en",)", "");
  const LoadResult result = load_catalog(catalog);
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.snapshot, nullptr);
  EXPECT_THAT(
      errors_of(catalog),
      ElementsAre("defaultLanguage: is required", "ads[0].advertiserId: unknown advertiser id 43",
                  "ads[0].weight: must be an integer in 1..1000000",
                  "ads[0].targeting.dayparts[0].start: must be HH:MM in 00:00..24:00"));
}

TEST(LoadErrors, StatusListsEveryErrorOnItsLine) {
  std::string catalog = edit(kDesignExample, R"("weight": 10,)", R"("weight": 0,)");
  catalog = edit(catalog, R"("templateId": 3)", R"("templateId": 4)");
  const absl::Status status = load_catalog(catalog).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(
      status.message(),
      "ads[0].templateId: unknown template id 4\nads[0].weight: must be an integer in 1..1000000");
  EXPECT_TRUE(load_catalog(kDesignExample).status().ok());
}

TEST(LoadErrors, ErrorsPastTheBoundAreCountedNotListed) {
  std::string ads;
  const size_t count = kMaxReportedErrors + 10;
  for (size_t i = 0; i < count; ++i) absl::StrAppend(&ads, i == 0 ? "" : ",", "{}");
  const std::string catalog =
      absl::StrCat(R"({"revision": "r", "defaultLanguage": "en", "priorities": [],
      "advertisers": [], "templates": [], "placements": [], "ads": [)",
                   ads, "]}");
  const LoadResult result = load_catalog(catalog);
  ASSERT_EQ(result.errors.size(), kMaxReportedErrors + 1);
  // An empty ad misses 8 required members: id, advertiserId, templateId, priority,
  // placementIds, weight, start, creatives.
  EXPECT_EQ(result.errors.back().message,
            absl::StrCat(count * 8 - kMaxReportedErrors, " more errors not listed"));
}

TEST(TolerantReader, UnknownFieldsAreIgnored) {
  std::string catalog =
      edit(design_video_example(), R"("revision": "2026-11-21.1",)",
           R"("revision": "2026-11-21.1", "generator": {"name": "gen-catalog", "v": [1, 2]},)");
  catalog = edit(catalog, R"("weight": 10,)", R"("weight": 10, "notes": null, "budget": 1e9,)");
  catalog = edit(catalog, R"("radiusKm": 25)", R"("radiusKm": 25, "label": "Paris")");
  catalog = edit(catalog, R"("duration": 30,)", R"("duration": 30, "codec": "h264",)");
  catalog = edit(catalog, R"({"key": "house", "weight": 1})",
                 R"({"key": "house", "weight": 1, "color": "grey"})");
  const auto snapshot = load_ok(catalog);
  ASSERT_NE(snapshot, nullptr);
  EXPECT_EQ(snapshot->ads()[0].weight, 10u);
}

TEST(SyntaxErrors, TruncatedJsonReportsAParseErrorWithItsPosition) {
  const std::string_view truncated = kDesignExample.substr(0, 200);
  const LoadResult result = load_catalog(truncated);
  ASSERT_EQ(result.errors.size(), 1u);
  const CatalogError& error = result.errors[0];
  EXPECT_EQ(error.path, "");
  ASSERT_TRUE(error.position.has_value());
  EXPECT_EQ(error.position->offset, 200u);
  EXPECT_THAT(error.message, HasSubstr("not valid JSON: unexpected end of input at line"));
}

TEST(SyntaxErrors, ABadTokenIsReportedAtItsLineAndColumn) {
  const LoadResult result = load_catalog("{\n  \"revision\": \"r\",\n  \"ads\": [1, 2,, 3]\n}");
  ASSERT_EQ(result.errors.size(), 1u);
  ASSERT_TRUE(result.errors[0].position.has_value());
  EXPECT_EQ(result.errors[0].position->line, 3u);
  EXPECT_EQ(result.errors[0].position->column, 16u);
  EXPECT_EQ(result.errors[0].message,
            "not valid JSON: expected a value at line 3, column 16 (byte 36)");
}

TEST(SyntaxErrors, EmptyInputIsNotJson) {
  const LoadResult result = load_catalog("");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_THAT(result.errors[0].message, HasSubstr("not valid JSON"));
}

TEST(CatalogFile, AMissingFileIsAnError) {
  const LoadResult result = load_catalog_file("/nonexistent/catalog.json");
  ASSERT_EQ(result.errors.size(), 1u);
  EXPECT_THAT(result.errors[0].message, HasSubstr("cannot read /nonexistent/catalog.json"));
}

}  // namespace
}  // namespace decision::catalog
