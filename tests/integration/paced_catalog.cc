#include "tests/integration/paced_catalog.h"

#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "tests/integration/curl_session.h"
#include "tests/integration/tracking_flow.h"

namespace integration {

std::string paced_catalog_json(std::string_view end_member, uint64_t goal, std::string_view pacing) {
  return home_top_catalog_json("paced-1", std::string(R"json(
    {"id": 1, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "start": "2020-01-01T00:00:00Z", )json") + std::string(end_member) + R"json(
     "delivery": {"impressions": )json" + std::to_string(goal) + R"json(, "pacing": ")json" + std::string(pacing) + R"json("},
     "creatives": [{"id": 10, "contents": {"en": [{"key": "title", "value": "paced"}]}}]},
    {"id": 3, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "start": "2020-01-01T00:00:00Z",
     "creatives": [{"id": 30, "contents": {"en": [{"key": "title", "value": "filler"}]}}]}
  )json");
}

std::string sole_paced_ad_catalog_json(std::string_view revision, uint64_t goal) {
  return home_top_catalog_json(revision, R"json(
    {"id": 1, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "start": "2020-01-01T00:00:00Z", "end": "2099-01-01T00:00:00Z",
     "delivery": {"impressions": )json" + std::to_string(goal) + R"json(, "pacing": "asap"},
     "creatives": [{"id": 10, "contents": {"en": [{"key": "title", "value": "paced"}]}}]}
  )json");
}

std::string unpaced_catalog_json(std::string_view revision) {
  return home_top_catalog_json(revision, R"json(
    {"id": 3, "advertiserId": 1, "placementIds": [7], "templateId": 1, "priority": "standard", "weight": 1,
     "start": "2020-01-01T00:00:00Z",
     "creatives": [{"id": 30, "contents": {"en": [{"key": "title", "value": "filler"}]}}]}
  )json");
}

int decisions_serving_ad_1(const ServerProcess& server, const std::string& prefix, int count) {
  int served = 0;
  for (int i = 0; i < count; ++i) {
    const CurlReply reply = decide(server, prefix + std::to_string(i), 1, /*fresh_connection=*/true);
    EXPECT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) served += c.ad_id == "ad_1" ? 1 : 0;
  }
  return served;
}

std::string explain_home_top(const ServerProcess& server, const std::string& user) {
  CurlSession admin;
  const CurlReply explained = admin.post(server.admin_url("/admin/explain"),
                                         R"({"placements":[{"key":"home_top","count":1}],"user":{"id":")" + user + R"("}})");
  EXPECT_EQ(explained.status, 200) << explained.body;
  return explained.body;
}

int serve_paced_ad(const std::vector<ServerProcess*>& nodes, const std::string& prefix, int wanted,
                   std::chrono::seconds within) {
  int counted = 0;
  const auto deadline = std::chrono::steady_clock::now() + within;
  for (size_t i = 0; counted < wanted && std::chrono::steady_clock::now() < deadline; ++i) {
    const CurlReply reply = decide(*nodes[i % nodes.size()], prefix + std::to_string(i), 1, /*fresh_connection=*/true);
    EXPECT_EQ(reply.status, 200) << reply.body;
    for (const CreativeTokens& c : tokens_of(reply.body)) {
      if (call_tracking(*nodes[(i + 1) % nodes.size()], c.impression).status == 204 && c.ad_id == "ad_1") ++counted;
    }
    if (i % 20 == 19) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return counted;
}

}  // namespace integration
