#pragma once
// Prometheus text exposition of every core's counters.
#include <cstdint>
#include <string>

#include "service/process_view.h"

namespace service {

void render_metrics(const ProcessView& view, int64_t now_wall_s, std::string& out);

}  // namespace service
