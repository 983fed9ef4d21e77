#include "tests/integration/test_catalog.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>

namespace integration {

TempFile::TempFile(std::string_view name, std::string_view text) {
  std::string pattern = (std::filesystem::temp_directory_path() / "decisiond-file-XXXXXX").string();
  if (::mkdtemp(pattern.data()) != nullptr) directory_ = pattern;
  path_ = (std::filesystem::path(directory_) / name).string();
  std::ofstream(path_, std::ios::binary) << text;
}

TempFile::~TempFile() {
  std::error_code ignored;
  if (!directory_.empty()) std::filesystem::remove_all(directory_, ignored);
}

namespace {
std::string id_list(const std::vector<uint64_t>& ids) {
  std::string out = "[";
  for (size_t i = 0; i < ids.size(); ++i) out += (i ? "," : "") + std::to_string(ids[i]);
  return out + "]";
}

std::string ad_json(const TestAd& ad) {
  const std::string id = std::to_string(ad.id);
  std::string out = R"({"id":)" + id + R"(,"advertiserId":)" + std::to_string(ad.advertiser_id) +
                    R"(,"placementIds":)" + id_list(ad.placement_ids) + R"(,"templateId":)" +
                    std::to_string(ad.template_id) + R"(,"priority":")" + ad.priority + R"(","weight":)" +
                    std::to_string(ad.weight) + R"(,"format":"native","start":")" + ad.start + "\"";
  if (!ad.end.empty()) out += R"(,"end":")" + ad.end + "\"";
  if (!ad.targeting_json.empty()) out += R"(,"targeting":)" + ad.targeting_json;
  out += R"(,"creatives":[{"id":)" + std::to_string(ad.id * 10) + R"(,"contents":{"en":[{"key":"title","value":"ad )" +
         id + R"("}]},"clickUrl":"https://advertiser.example.test/)" + id + R"("}]})";
  return out;
}
}  // namespace

std::string test_catalog_json(const std::vector<TestPlacement>& placements, const std::vector<TestAd>& ads) {
  std::string out = R"({"revision":"integration-test","defaultLanguage":"en",
"priorities":[{"key":"sponsorship","weight":100},{"key":"standard","weight":50},{"key":"house","weight":1}],
"advertisers":[{"id":1,"name":"One"},{"id":2,"name":"Two"},{"id":3,"name":"Three"}],
"templates":[{"id":1,"key":"card"},{"id":2,"key":"banner"}],
"placements":[)";
  for (size_t i = 0; i < placements.size(); ++i) {
    out += std::string(i ? "," : "") + R"({"id":)" + std::to_string(placements[i].id) + R"(,"key":")" + placements[i].key + "\"}";
  }
  out += "],\n\"ads\":[";
  for (size_t i = 0; i < ads.size(); ++i) out += (i ? ",\n" : "\n") + ad_json(ads[i]);
  return out + "]}\n";
}

}  // namespace integration
