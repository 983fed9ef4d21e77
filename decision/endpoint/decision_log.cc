#include "decision/endpoint/decision_log.h"

namespace decision::endpoint {

void log_decision(const response::ResponseInput& input, uint32_t core, int64_t now_ms, tracking::events::EventLog& log) {
  tracking::events::EventRecord record;
  record.time_ms = now_ms;
  record.kind = "decision";
  record.request_id = input.tracking.request_id;
  record.user = input.tracking.user_id;
  record.core = core;
  const auto ads = input.snapshot.ads();
  const auto placements = input.snapshot.placements();
  for (const response::PlacementDecision& placement : input.placements) {
    if (!placement.placement_index) continue;
    record.placement = placements[*placement.placement_index].id;
    for (const selection::Pick& pick : placement.picks) {
      const catalog::Ad& ad = ads[pick.ad_index];
      record.ad = ad.id;
      record.creative = ad.creatives[pick.creative_index].id;
      log.append(record);
    }
  }
}

}  // namespace decision::endpoint
