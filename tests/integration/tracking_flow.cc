#include "tests/integration/tracking_flow.h"

#include <dirent.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "tests/integration/json_body.h"

namespace integration {

std::string home_top_catalog_json(std::string_view revision, std::string_view ads) {
  return std::string(R"json({
  "revision": ")json") + std::string(revision) + R"json(", "defaultLanguage": "en",
  "priorities": [{"key": "standard", "weight": 50}],
  "advertisers": [{"id": 1, "name": "One"}],
  "templates": [{"id": 1, "key": "card"}],
  "placements": [{"id": 7, "key": "home_top"}],
  "ads": [)json" + std::string(ads) + "]}";
}

std::string capped_catalog_json() {
  return home_top_catalog_json("capped-1", R"json(
    {"id": 1, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "format": "native", "start": "2020-01-01T00:00:00Z",
     "frequencyCaps": [{"impressions": 2, "windowSeconds": 3600}],
     "creatives": [{"id": 10, "clickUrl": "https://one.example.com/landing?a=1&b=2",
                    "contents": {"en": [{"key": "title", "value": "ad 1"}]}}]},
    {"id": 2, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "format": "native", "start": "2020-01-01T00:00:00Z",
     "frequencyCaps": [{"impressions": 1, "windowSeconds": 86400}],
     "creatives": [{"id": 20, "contents": {"en": [{"key": "title", "value": "ad 2"}]}}]},
    {"id": 3, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "format": "native", "start": "2020-01-01T00:00:00Z", "customEvents": ["add_to_cart"],
     "creatives": [{"id": 30, "clickUrl": "https://three.example.com/", "customEvents": ["add_to_cart"],
                    "contents": {"en": [{"key": "title", "value": "ad 3"}]}}]}
  )json");
}

StateDir::StateDir() {
  char pattern[] = "/tmp/decisiond-state-XXXXXX";
  const char* made = ::mkdtemp(pattern);
  path_ = made != nullptr ? made : "";
}

StateDir::~StateDir() {
  std::error_code ignored;
  if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
}

namespace {
std::string token_of(std::string_view url) {
  const size_t at = url.find("?t=");
  return at == std::string_view::npos ? std::string() : std::string(url.substr(at + 3));
}

std::string first_value(simdjson::dom::element tracking, std::string_view key) {
  for (simdjson::dom::element item : array_member(tracking, key)) {
    if (const auto value = string_member(item, "value")) return token_of(*value);
  }
  return {};
}
}  // namespace

std::vector<CreativeTokens> tokens_of(const std::string& decision_body) {
  std::vector<CreativeTokens> out;
  JsonBody body(decision_body);
  if (!body.ok()) return out;
  const auto data = member(body.root(), "data");
  if (!data) return out;
  for (simdjson::dom::element placement : array_items(*data)) {
    for (simdjson::dom::element creative : array_member(placement, "creatives")) {
      CreativeTokens tokens;
      if (const auto metadata = member(creative, "metadata")) tokens.ad_id = string_member(*metadata, "adId").value_or("");
      const auto tracking = member(creative, "tracking");
      if (!tracking) continue;
      tokens.impression = first_value(*tracking, "impressions");
      tokens.click = first_value(*tracking, "clicks");
      for (simdjson::dom::element item : array_member(*tracking, "custom")) {
        tokens.custom[string_member(item, "key").value_or("")] = token_of(string_member(item, "value").value_or(""));
      }
      out.push_back(tokens);
    }
  }
  return out;
}

CurlReply decide(const ServerProcess& server, std::string_view user, int count, bool fresh_connection,
                 std::string_view extra_json) {
  std::string body = R"({"placements":[{"key":"home_top","count":)" + std::to_string(count) + "}]";
  if (!user.empty()) body += R"(,"user":{"id":")" + std::string(user) + R"("})";
  body += std::string(extra_json) + "}";
  thread_local CurlSession kept;
  if (!fresh_connection) return kept.post(server.public_url("/v1/decision"), body);
  CurlSession session;
  return session.post(server.public_url("/v1/decision"), body);
}

CurlReply call_tracking(const ServerProcess& server, std::string_view token, std::string_view extra_query,
                        const std::vector<std::string>& headers) {
  CurlSession session;
  const std::string url = server.public_url("/v1/tracking?t=" + std::string(token) + std::string(extra_query));
  if (headers.empty()) return session.get(url);
  return session.get_with_headers(url, headers);
}

std::vector<LogLine> read_event_log(const std::string& state_dir) {
  std::vector<LogLine> lines;
  const std::filesystem::path events = std::filesystem::path(state_dir) / "events";
  std::error_code error;
  if (!std::filesystem::exists(events, error)) return lines;
  std::vector<std::filesystem::path> files;  // events/<core>/<file>
  for (const auto& core : std::filesystem::directory_iterator(events, error)) {
    for (const auto& file : std::filesystem::directory_iterator(core.path(), error)) files.push_back(file.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path);
    std::string text;
    while (std::getline(in, text)) {
      if (in.eof()) break;  // no newline after it: torn
      JsonBody line(text);
      if (!line.ok()) continue;
      LogLine l;
      l.kind = string_member(line.root(), "kind").value_or("");
      l.ad = static_cast<uint64_t>(int_member(line.root(), "ad").value_or(0));
      if (const auto user = string_member(line.root(), "user")) {
        l.user = *user;
        l.has_user = true;
      }
      if (const auto d = member(line.root(), "duplicate")) l.duplicate = d->is_bool() && bool(d->get_bool());
      l.token = string_member(line.root(), "token").value_or("");
      l.store = string_member(line.root(), "store").value_or("");
      l.invalid = string_member(line.root(), "invalid").value_or("");
      l.event = string_member(line.root(), "event").value_or("");
      l.code = int_member(line.root(), "code").value_or(-1);
      l.core_dir = path.parent_path().filename().string();
      lines.push_back(l);
    }
  }
  return lines;
}

}  // namespace integration
