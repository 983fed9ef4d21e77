#pragma once
// Prometheus text exposition of every core's counters.
#include <cstdint>
#include <string>

#include "service/process_view.h"

namespace service {

// answering: the core that serves the scrape.
void render_metrics(const ProcessView& view, const CoreServices& answering, int64_t now_wall_s, std::string& out);

}  // namespace service
