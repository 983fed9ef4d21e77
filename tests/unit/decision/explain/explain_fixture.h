#pragma once
// The explain handler in process: a catalog with one ad per rule, a manual clock, a cap
// partition, and the explain's body parsed for the assertions.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "caps/cap_partition.h"
#include "caps/user_key.h"
#include "decision/catalog/loader.h"
#include "decision/endpoint/decision_handler.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/explain/explain_ask.h"
#include "decision/explain/explain_handler.h"
#include "decision/user_state/owner_core_route.h"
#include "runtime/clock.h"

namespace decision::explain::testing {

inline constexpr int64_t kNowNs = 1'795'737'600'000'000'000;  // Friday 2026-11-27 00:00:00 UTC
inline constexpr int64_t kNowS = kNowNs / 1'000'000'000;

// home_top: a capped sponsorship ad over two standard ones. sidebar: home_top's ad 102 and
// its own 106. rules: one standard ad per rule beside a plain one (301), all eligible at
// once when the request is right, so count 10 serves every eligible ad (no draw decides).
inline constexpr std::string_view kCatalog = R"json({
  "revision": "explain-test.1",
  "defaultLanguage": "en",
  "priorities": [{"key": "sponsorship", "weight": 100}, {"key": "standard", "weight": 50}],
  "advertisers": [{"id": 1, "name": "One"}, {"id": 2, "name": "Two"}],
  "templates": [{"id": 3, "key": "card"}, {"id": 4, "key": "banner"}],
  "placements": [{"id": 7, "key": "home_top"}, {"id": 8, "key": "sidebar"}, {"id": 9, "key": "rules"}],
  "ads": [
    {"id": 101, "advertiserId": 1, "placementIds": [7], "templateId": 3, "priority": "sponsorship",
     "weight": 1, "format": "native", "start": "2026-01-01T00:00:00Z",
     "frequencyCaps": [{"impressions": 1, "windowSeconds": 3600}],
     "creatives": [{"id": 201, "contents": {"en": [{"key": "t", "value": "sponsor"}]}}]},
    {"id": 102, "advertiserId": 2, "placementIds": [7, 8], "templateId": 4, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 202, "contents": {"en": [{"key": "t", "value": "shared"}],
                                            "fr": [{"key": "t", "value": "partagé"}]}}]},
    {"id": 103, "advertiserId": 1, "placementIds": [7], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 203, "contents": {"en": [{"key": "t", "value": "plain"}]}}]},
    {"id": 106, "advertiserId": 2, "placementIds": [8], "templateId": 4, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 206, "contents": {"en": [{"key": "t", "value": "side"}]}}]},

    {"id": 301, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 401, "contents": {"en": [{"key": "t", "value": "plain"}]}}]},
    {"id": 302, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z", "end": "2026-02-01T00:00:00Z",
     "creatives": [{"id": 402, "contents": {"en": [{"key": "t", "value": "ended"}]}}]},
    {"id": 303, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2027-01-01T00:00:00Z",
     "creatives": [{"id": 403, "contents": {"en": [{"key": "t", "value": "not yet"}]}}]},
    {"id": 304, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z", "targeting": {"geo": [3017382]},
     "creatives": [{"id": 404, "contents": {"en": [{"key": "t", "value": "france"}]}}]},
    {"id": 305, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "targeting": {"location": [{"lat": 48.8566, "lon": 2.3522, "radiusKm": 25}]},
     "creatives": [{"id": 405, "contents": {"en": [{"key": "t", "value": "paris"}]}}]},
    {"id": 306, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "targeting": {"custom": "custom.tier == 'gold'"},
     "creatives": [{"id": 406, "contents": {"en": [{"key": "t", "value": "gold"}]}}]},
    {"id": 307, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "targeting": {"dayparts": [{"days": ["mon", "tue", "wed", "thu", "fri"], "start": "08:00", "end": "20:00"}]},
     "creatives": [{"id": 407, "contents": {"en": [{"key": "t", "value": "office hours"}]}}]},
    {"id": 308, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z", "targeting": {"destination": [2267057]},
     "creatives": [{"id": 408, "contents": {"en": [{"key": "t", "value": "lisbon"}]}}]},
    {"id": 309, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "video", "start": "2026-01-01T00:00:00Z",
     "creatives": [{"id": 409, "contents": {"en": [{"key": "title", "value": "a film"}]},
                    "video": {"delivery": "vast_xml", "duration": 30,
                              "mediaFiles": [{"url": "https://cdn.example.test/v.mp4", "type": "video/mp4",
                                              "width": 1280, "height": 720}]}}]},
    {"id": 311, "advertiserId": 1, "placementIds": [9], "templateId": 3, "priority": "standard",
     "weight": 5, "format": "native", "start": "2026-01-01T00:00:00Z",
     "frequencyCaps": [{"impressions": 1, "windowSeconds": 3600}, {"impressions": 6, "windowSeconds": 86400}],
     "creatives": [{"id": 411, "contents": {"en": [{"key": "t", "value": "capped"}]}}]}
  ]
})json";

inline constexpr caps::CapRule kCaps101[] = {{1, 3600}};
inline constexpr caps::CapRule kCaps311[] = {{1, 3600}, {6, 86400}};
inline constexpr std::string_view kRulesBody = R"({"placements":[{"key":"rules","count":10}]})";

inline std::shared_ptr<const endpoint::ServedCatalog> served_catalog() {
  catalog::LoadResult loaded = catalog::load_catalog(kCatalog);
  EXPECT_TRUE(loaded.errors.empty()) << loaded.errors.front().to_string();
  return endpoint::make_served_catalog(loaded.snapshot);
}

inline const std::vector<http::Header> kJsonOnly = {{"Content-Type", "application/json"}};
inline const std::vector<http::Header> kV20251101 = {{"Content-Type", "application/json"},
                                                     {"X-Decision-Version", "2025-11-01"},
                                                     {"Accept-Language", "en"}};

// The minified JSON of an element: what a test compares a whole rule object with.
inline std::string json_of(simdjson::dom::element element) { return simdjson::minify(element); }

class ExplainTest : public ::testing::Test {
 protected:
  endpoint::DecisionSettings settings(uint64_t seed) const {
    endpoint::DecisionSettings s;
    s.base_url = "https://ads.example.test";
    s.seed = seed;
    s.process_start_wall_ns = kNowNs;
    return s;
  }

  // One core owning every user: caps are read from caps_ in place.
  std::unique_ptr<ExplainHandler> make_explainer(uint64_t seed, uint32_t core = 0) {
    settings_ = settings(seed);
    routes_.push_back(
        std::make_unique<user_state::OwnerCoreRoute<ExplainAsk>>("/admin/explain", caps_, core, nullptr, nullptr, 0));
    return std::make_unique<ExplainHandler>(clock_, core, versions_, settings_, catalog_, *routes_.back(), nullptr);
  }

  http::Response& post(http::Handler& handler, std::string_view body,
                       const std::vector<http::Header>& headers = kJsonOnly, std::string_view path = "/admin/explain") {
    request_ = http::Request{};
    request_.method = http::Method::kPost;
    request_.path = path;
    for (const http::Header& header : headers) request_.headers[request_.header_count++] = header;
    request_.body = body;
    response_.reset();
    handler.handle(request_, response_);
    return response_;
  }

  // Explains and parses the body; the elements stay valid until the next call.
  simdjson::dom::element explain(ExplainHandler& handler, std::string_view body,
                                 const std::vector<http::Header>& headers = kJsonOnly) {
    const http::Response& response = post(handler, body, headers);
    EXPECT_EQ(response.status(), 200) << response.body();
    body_ = response.body();
    simdjson::dom::element root;
    const simdjson::error_code error = parser_.parse(body_).get(root);
    EXPECT_EQ(error, simdjson::SUCCESS) << body_;
    return root;
  }

  // The candidate entry of ad_id in the placement at index.
  static simdjson::dom::element candidate(simdjson::dom::element root, size_t placement, std::string_view ad_id) {
    for (simdjson::dom::element c : root["data"]["placements"].at(placement)["candidates"].get_array()) {
      if (std::string_view(c["ad"].get_string()) == ad_id) return c;
    }
    ADD_FAILURE() << "no candidate " << ad_id << " in placement " << placement;
    return root;
  }
  static std::string rule_of(simdjson::dom::element root, size_t placement, std::string_view ad_id) {
    return json_of(candidate(root, placement, ad_id)["rule"]);
  }
  static std::string outcome_of(simdjson::dom::element root, size_t placement, std::string_view ad_id) {
    return std::string(candidate(root, placement, ad_id)["outcome"].get_string().value());
  }
  // The ads the explained decision serves in the placement at index.
  static std::vector<std::string> served_ads(simdjson::dom::element root, size_t placement) {
    std::vector<std::string> out;
    for (simdjson::dom::element c : root["data"]["decision"]["placements"].at(placement)["creatives"].get_array()) {
      out.emplace_back(std::string_view(c["ad"].get_string()));
    }
    return out;
  }

  runtime::ManualClock clock_{kNowNs};
  api_versions::VersionTable versions_ = api_versions::VersionTable::built_in();
  std::shared_ptr<const endpoint::ServedCatalog> catalog_ = served_catalog();
  caps::CapPartition caps_;
  // One per handler made, outliving every handler (a derived fixture's are destroyed first).
  std::vector<std::unique_ptr<user_state::UserStateRoute>> routes_;
  endpoint::DecisionSettings settings_;
  http::Request request_;
  http::Response response_;
  std::string body_;
  simdjson::dom::parser parser_;
};

}  // namespace decision::explain::testing
