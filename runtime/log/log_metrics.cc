#include "runtime/log/log_metrics.h"

#include "runtime/check.h"
#include "runtime/metric_table.h"

namespace runtime::log {

namespace {

constexpr MetricRow<LogCounters> kByLevel[] = {
    {R"(level="error")", &LogCounters::written_error},
    {R"(level="warn")", &LogCounters::written_warn},
    {R"(level="info")", &LogCounters::written_info},
    {R"(level="debug")", &LogCounters::written_debug},
};

constexpr Metric<LogCounters> kFamilies[] = {
    {.name = "decisiond_log_lines_total", .type = MetricType::kCounter,
     .help = "Log lines written on stderr, by level (rate-limit summaries included).",
     .scope = MetricScope::kAnswering, .rows = kByLevel},
    {.name = "decisiond_log_lines_suppressed_total", .type = MetricType::kCounter,
     .help = "Log lines held back by the rate limit on lines that repeat (each window's summary line counts them).",
     .scope = MetricScope::kAnswering, .counter = &LogCounters::held_back},
};

constexpr Metric<CoreLogCounters> kCoreFamilies[] = {
    counter("decisiond_log_lines_dropped_total",
            "Log lines a core dropped because its queue to the log writer was full.", &CoreLogCounters::dropped),
};

}  // namespace

constinit const MetricTable<LogCounters> kLogMetricTable = kFamilies;
constinit const MetricTable<CoreLogCounters> kCoreLogMetricTable = kCoreFamilies;

const CoreLogCounters& this_core_log_counters() {
  const CoreLines* lines = this_thread_lines();
  DECISIOND_CHECK_MSG(lines != nullptr, "a core's log counters are registered on its own thread");
  return lines->counters();
}

const LogCounters& log_counters() { return LineOutput::instance().counters(); }

}  // namespace runtime::log
