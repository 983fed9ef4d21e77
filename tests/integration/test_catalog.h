#pragma once
// Catalogs and other files a test writes for its server (--catalog, --versions): small,
// so that every ad a test reasons about is in front of the reader.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace integration {

// A file in a private temporary directory, removed with the object.
class TempFile {
 public:
  TempFile(std::string_view name, std::string_view text);
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile();
  const std::string& path() const { return path_; }

 private:
  std::string directory_;
  std::string path_;
};

struct TestPlacement {
  uint64_t id = 0;
  std::string key;
};

struct TestAd {
  uint64_t id = 0;
  std::vector<uint64_t> placement_ids{};
  std::string priority = "standard";
  uint32_t weight = 1;
  uint64_t advertiser_id = 1;
  uint64_t template_id = 1;
  std::string start = "2020-01-01T00:00:00Z";
  std::string end{};             // empty: open-ended
  std::string targeting_json{};  // the ad's "targeting" object; empty: untargeted
};

// A request for every placement of the built-in demo catalog (catalogs/demo.json) that
// has native ads, each asking for as many creatives as it has.
inline constexpr char kAllDemoNativePlacements[] =
    R"({"placements":[{"key":"home_top","count":10},{"key":"article_inline","count":10},)"
    R"({"key":"sidebar","count":10}]})";

// Tiers sponsorship (100), standard (50) and house (1); advertisers 1 to 3; templates 1
// ("card") and 2 ("banner"); the given placements and ads; per ad one creative, id
// 10 * ad id, with English content only ({"key":"title","value":"ad <id>"}).
std::string test_catalog_json(const std::vector<TestPlacement>& placements, const std::vector<TestAd>& ads);

}  // namespace integration
