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

// Serves fresh users (prefix + n) until wanted impressions of ad 1 were counted or the time
// is up; how many were. A node is picked per decision, and another for its impression.
int serve_paced_ad(const std::vector<ServerProcess*>& nodes, const std::string& prefix, int wanted,
                   std::chrono::seconds within);

}  // namespace integration
