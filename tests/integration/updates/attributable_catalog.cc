#include "tests/integration/updates/attributable_catalog.h"

#include <charconv>
#include <string_view>

#include "tests/integration/json_body.h"

namespace integration::updates {

namespace {

constexpr uint64_t kIdBlock = 1'000'000;
constexpr int kAdvertisers = 4;

uint64_t id_base(char letter) { return letter == 'A' ? kIdBlock : 2 * kIdBlock; }

// 'A' or 'B' for an id of that catalog's block, else '?'.
char letter_of_id(uint64_t id) {
  if (id / kIdBlock == 1) return 'A';
  if (id / kIdBlock == 2) return 'B';
  return '?';
}

// "<prefix><digits>" -> digits; nullopt on any other shape.
std::optional<uint64_t> number_after(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return std::nullopt;
  text.remove_prefix(prefix.size());
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string token_of(std::string_view url) {
  const size_t at = url.find("?t=");
  return at == std::string_view::npos ? std::string() : std::string(url.substr(at + 3));
}

// The catalog one creative names, or an explanation of why it names none.
std::string creative_origin(simdjson::dom::element creative, char& letter) {
  const auto metadata = member(creative, "metadata");
  if (!metadata) return "no metadata";
  const std::optional<uint64_t> ad = number_after(string_member(*metadata, "adId").value_or(""), "ad_");
  const std::optional<uint64_t> id = number_after(string_member(*metadata, "creativeId").value_or(""), "creative_");
  if (!ad || !id) return "unreadable adId or creativeId";
  letter = letter_of_id(*ad);
  if (letter == '?') return "ad " + std::to_string(*ad) + " is in neither catalog";
  if (*id != *ad * 10) return "creative " + std::to_string(*id) + " is not ad " + std::to_string(*ad) + "'s";
  std::string title;
  for (simdjson::dom::element item : array_member(creative, "contents")) {
    if (string_member(item, "key") == "title") title = string_member(item, "value").value_or("");
  }
  if (title != std::string(1, letter) + " " + std::to_string(*ad)) return "ad " + std::to_string(*ad) + " titled \"" + title + "\"";
  const auto advertiser = member(creative, "advertiser");
  const std::string name = advertiser ? string_member(*advertiser, "name").value_or("") : "";
  if (!name.starts_with(std::string(1, letter) + " advertiser ")) {
    return "ad " + std::to_string(*ad) + " of advertiser \"" + name + "\"";
  }
  return {};
}

}  // namespace

std::string attributable_catalog_json(char letter, const std::string& revision, size_t ads) {
  const std::string l(1, letter);
  std::string out = R"({"revision":")" + revision + R"(","defaultLanguage":"en",)"
                    R"("priorities":[{"key":"standard","weight":50}],"advertisers":[)";
  for (int a = 1; a <= kAdvertisers; ++a) {
    out += (a > 1 ? "," : "") + std::string(R"({"id":)") + std::to_string(a) + R"(,"name":")" + l + " advertiser " +
           std::to_string(a) + "\"}";
  }
  out += R"(],"templates":[{"id":1,"key":"card"}],"placements":[{"id":1,"key":"top"},{"id":2,"key":"side"}],"ads":[)";
  for (size_t i = 0; i < ads; ++i) {
    const std::string id = std::to_string(id_base(letter) + i);
    const char* placements = i % 10 == 0 ? "[1,2]" : (i % 2 == 0 ? "[1]" : "[2]");
    out += (i ? ",\n" : "\n") + std::string(R"({"id":)") + id + R"(,"advertiserId":)" +
           std::to_string(1 + i % kAdvertisers) + R"(,"placementIds":)" + placements +
           R"(,"templateId":1,"priority":"standard","weight":)" + std::to_string(1 + i % 7) +
           R"(,"format":"native","start":"2020-01-01T00:00:00Z","creatives":[{"id":)" + id + "0" +
           R"(,"clickUrl":"https://)" + l + R"(.example.test/)" + id + R"(","contents":{"en":[)" +
           R"({"key":"title","value":")" + l + " " + id + R"("},)" +
           R"({"key":"body","value":"Catalog )" + l + R"( says hello from ad )" + id + R"("}]}}]})";
  }
  return out + "]}\n";
}

ReplyOrigin origin_of(const std::string& decision_body) {
  ReplyOrigin origin;
  const JsonBody body(decision_body);
  bool success = false;
  const auto success_member = body.ok() ? member(body.root(), "success") : std::nullopt;
  if (!success_member || success_member->get_bool().get(success) != simdjson::SUCCESS || !success) {
    origin.problem = "not a success envelope: " + decision_body;
    return origin;
  }
  for (simdjson::dom::element placement : array_member(body.root(), "data")) {
    for (simdjson::dom::element creative : array_member(placement, "creatives")) {
      ++origin.creatives;
      char letter = '?';
      const std::string problem = creative_origin(creative, letter);
      if (!problem.empty() && origin.problem.empty()) origin.problem = problem + " in " + decision_body;
      origin.catalogs.insert(letter);
      std::string impression;
      if (const auto tracking = member(creative, "tracking")) {
        for (simdjson::dom::element item : array_member(*tracking, "impressions")) {
          impression = token_of(string_member(item, "value").value_or(""));
          break;
        }
      }
      origin.impressions.push_back(impression);
    }
  }
  return origin;
}

}  // namespace integration::updates
