#pragma once
// A catalog with one delivery goal (docs/pacing.md), for the pacing tests of one node and of
// a cluster: ad 1 carries the goal, ad 3 shares its tier and placement without one, both
// in "home_top" (placement 7). Decisions name it as tracking_flow.h's catalogs do.
#include <cstdint>
#include <string>
#include <string_view>

#include "tests/integration/server_process.h"

namespace integration {

// end_member: the ad's "end" member with its comma (R"("end": "2099-01-01T00:00:00Z",)"),
// or empty for an open-ended ad.
std::string paced_catalog_json(std::string_view end_member, uint64_t goal, std::string_view pacing = "asap");

// A catalog whose only ad is ad 1 with an asap goal (open until 2099): a decision on
// home_top serves it when pacing lets it through, and nothing otherwise.
std::string sole_paced_ad_catalog_json(std::string_view revision, uint64_t goal);
// The same placement with only ad 3, without a goal.
std::string unpaced_catalog_json(std::string_view revision);

// count decisions on home_top for fresh users (prefix + n), each on a new connection (so
// they land on every core), made at once, one after another: how many served ad 1.
int decisions_serving_ad_1(const ServerProcess& server, const std::string& prefix, int count);
// POST /admin/explain for home_top: the reply's body (its status checked).
std::string explain_home_top(const ServerProcess& server, const std::string& user);

// Serves fresh users (prefix + n) until wanted impressions of ad 1 were counted or the time
// is up; how many were. A node is picked per decision, and another for its impression.
int serve_paced_ad(const std::vector<ServerProcess*>& nodes, const std::string& prefix, int wanted,
                   std::chrono::seconds within);

}  // namespace integration
