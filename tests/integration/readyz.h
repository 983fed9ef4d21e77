#pragma once
// GET /readyz on the admin listener until it answers a status. Readiness follows the event
// log's health (docs/operations.md), which turns at the server's next write or retry after
// the disk changes, so tests wait for it rather than sleep.
#include <chrono>

#include "tests/integration/server_process.h"

namespace integration {

// Whether /readyz answered status before the deadline.
bool wait_for_readyz(const ServerProcess& server, long status, std::chrono::milliseconds timeout = kStateTimeout);

}  // namespace integration
