#pragma once
// The Prometheus text exposition format (version 0.0.4) of every core's metric tables
// (metric_source.h): HELP and TYPE once per family, then its series. A table registered
// several times on a core (one per listener) gives one family with every registration's
// series, in registration order, then by core.
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/metric_source.h"

namespace runtime {

// answering: the core serving the scrape (MetricScope::kAnswering); now_wall_s: Unix
// seconds, for families that export an age.
void render_metrics(const MetricRegistry& registry, uint32_t answering, int64_t now_wall_s, std::string& out);

// A label value as the format wants it between its quotes: backslash, double quote and
// line feed escaped (\\, \", \n), every other byte as it is (values are UTF-8: catalog
// keys and revisions come from JSON). JSON escaping would not do: \uXXXX and \t are not
// escapes the format knows, and Prometheus refuses the page.
void append_label_value(std::string& out, std::string_view value);

}  // namespace runtime
