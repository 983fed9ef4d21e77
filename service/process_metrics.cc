#include "service/process_metrics.h"

#include "absl/strings/str_cat.h"

namespace service {

namespace {
void how_it_runs(const ProcessView& view, runtime::MetricSeriesList& out) {
  out.add(0, {{"io_uring_setup", view.io_uring_mode}, {"cores", absl::StrCat(view.config.cores)}});
}

constexpr runtime::Metric<ProcessView> kFamilies[] = {
    {.name = "decisiond_info", .type = runtime::MetricType::kGauge,
     .help = "Constant 1, labelled with how the process runs.", .scope = runtime::MetricScope::kAnswering,
     .series = &how_it_runs, .read = [](const ProcessView&, uint32_t) -> uint64_t { return 1; }},
    {.name = "decisiond_uptime_seconds", .type = runtime::MetricType::kGauge, .help = "Seconds since start-up.",
     .scope = runtime::MetricScope::kAnswering,
     .read = [](const ProcessView& view, uint32_t) -> uint64_t { return static_cast<uint64_t>(view.started_wall_s); },
     .age = true},
};
}  // namespace

constinit const runtime::MetricTable<ProcessView> kProcessMetricTable = kFamilies;

}  // namespace service
