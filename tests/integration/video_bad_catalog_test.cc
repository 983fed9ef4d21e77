// A catalog whose video creative breaks a rule of docs/catalog.md ("Video")
// refuses start-up: exit 2, and stderr names the JSON path of the offending field. One case
// per rule; the same catalog with a good video object starts.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/server_process.h"
#include "tests/integration/test_catalog.h"
#include "tests/integration/video_catalog.h"

namespace integration {
namespace {

constexpr char kGoodVerification[] = R"([{"vendorKey":"v","url":"https://verify.example.test/v.js"}])";

// kGoodVideoJson with member key set to value (a JSON text), replaced or added.
std::string video_with(std::string_view key, std::string_view value) {
  std::string video = kGoodVideoJson;
  const std::string quoted = "\"" + std::string(key) + "\":";
  const size_t at = video.find(quoted);
  const std::string replacement = quoted + std::string(value);
  if (at == std::string::npos) {
    video.insert(video.size() - 1, "," + replacement);
  } else {
    // The old value runs to the next top-level ',' or the final '}'.
    size_t end = at + quoted.size();
    int depth = 0;
    for (; end < video.size() - 1; ++end) {
      const char c = video[end];
      if (c == '[' || c == '{') ++depth;
      if (c == ']' || c == '}') --depth;
      if (c == ',' && depth == 0) break;
    }
    video.replace(at, end - at, replacement);
  }
  return video;
}

struct BadVideo {
  const char* name;
  std::string video;
  std::string verification;
  std::string path;  // what stderr must name
};

void PrintTo(const BadVideo& c, std::ostream* out) { *out << c.name; }

class VideoBadCatalog : public ::testing::TestWithParam<BadVideo> {};

TEST_P(VideoBadCatalog, RefusesStartUpNamingThePath) {
  const BadVideo& c = GetParam();
  const TempFile catalog("catalog.json", one_video_ad_catalog_json(c.video, c.verification));
  const FinishedRun run = run_to_exit(standard_flags({"--catalog=" + catalog.path()}));
  ASSERT_TRUE(run.exit) << "still running: a refused catalog must stop start-up";
  EXPECT_EQ(run.exit->code, 2) << run.exit->describe();
  EXPECT_NE(run.stderr_text.find("refused with 1 error(s)"), std::string::npos) << run.stderr_text;
  EXPECT_NE(run.stderr_text.find(c.path), std::string::npos) << run.stderr_text;
}

const std::string kVideo = "ads[0].creatives[0].video.";
const std::string kVerification = "ads[0].creatives[0].verification[0].";

INSTANTIATE_TEST_SUITE_P(
    VideoRule, VideoBadCatalog,
    ::testing::Values(
        BadVideo{"VideoNull", "null", "[]", "ads[0].creatives[0].video"},
        BadVideo{"SkipOffsetInSeconds", video_with("skipOffset", R"("5s")"), "[]", kVideo + "skipOffset"},
        BadVideo{"SkipOffsetPercentOver100", video_with("skipOffset", R"("101%")"), "[]", kVideo + "skipOffset"},
        BadVideo{"SkipOffsetPastTheEnd", video_with("skipOffset", R"("00:00:11")"), "[]", kVideo + "skipOffset"},
        BadVideo{"DurationZero", video_with("duration", "0"), "[]", kVideo + "duration"},
        BadVideo{"DurationADay", video_with("duration", "86400"), "[]", kVideo + "duration"},
        BadVideo{"DurationMissing",
                 R"({"delivery":"json","mediaFiles":[{"url":"https://cdn.example.test/a.mp4","type":"video/mp4",)"
                 R"("width":640,"height":360}]})",
                 "[]", kVideo + "duration"},
        BadVideo{"DeliveryDash", video_with("delivery", R"("dash")"), "[]", kVideo + "delivery"},
        BadVideo{"NoMediaFile", video_with("mediaFiles", "[]"), "[]", kVideo + "mediaFiles"},
        BadVideo{"MediaDeliveryRtmp",
                 video_with("mediaFiles", R"([{"url":"https://cdn.example.test/a.mp4","type":"video/mp4",)"
                                          R"("width":640,"height":360,"delivery":"rtmp"}])"),
                 "[]", kVideo + "mediaFiles[0].delivery"},
        BadVideo{"MediaWidthZero",
                 video_with("mediaFiles", R"([{"url":"https://cdn.example.test/a.mp4","type":"video/mp4",)"
                                          R"("width":0,"height":360}])"),
                 "[]", kVideo + "mediaFiles[0].width"},
        BadVideo{"AspectRatioWord", video_with("aspectRatio", R"("wide")"), "[]", kVideo + "aspectRatio"},
        BadVideo{"CompanionTypeHtml",
                 video_with("companions", R"([{"width":300,"height":250,"imageUrl":"https://cdn.example.test/c.png",)"
                                          R"("type":"text/html"}])"),
                 "[]", kVideo + "companions[0].type"},
        BadVideo{"VendorKeyOver256Bytes", kGoodVideoJson,
                 R"([{"vendorKey":")" + std::string(257, 'v') + R"(","url":"https://verify.example.test/v.js"}])",
                 kVerification + "vendorKey"},
        BadVideo{"BrowserOptionalString", kGoodVideoJson,
                 R"([{"vendorKey":"v","url":"https://verify.example.test/v.js","browserOptional":"yes"}])",
                 kVerification + "browserOptional"}),
    [](const ::testing::TestParamInfo<BadVideo>& info) { return std::string(info.param.name); });

TEST(VideoCatalog, TheSameCatalogWithGoodVideoAndVerificationStarts) {
  const std::string vendor_key_of_256_bytes =
      R"([{"vendorKey":")" + std::string(256, 'v') + R"(","url":"https://verify.example.test/v.js","browserOptional":true}])";
  for (const std::string& verification : {std::string("[]"), std::string(kGoodVerification), vendor_key_of_256_bytes}) {
    const TempFile catalog("catalog.json",
                           one_video_ad_catalog_json(video_with("skipOffset", R"("00:00:10")"), verification));
    ServerProcess server(standard_flags({"--catalog=" + catalog.path()}));
    EXPECT_TRUE(server.serving()) << server.start_error() << "\n" << server.stderr_text();
  }
}

}  // namespace
}  // namespace integration
