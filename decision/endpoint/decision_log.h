#pragma once
// The event log's decision lines (docs/events.md): one per creative served, with the
// request id and user id its tracking tokens carry.
#include <cstdint>

#include "decision/response/response_writer.h"
#include "tracking/events/event_log.h"

namespace decision::endpoint {

void log_decision(const response::ResponseInput& input, uint32_t core, int64_t now_ms, tracking::events::EventLog& log);

}  // namespace decision::endpoint
