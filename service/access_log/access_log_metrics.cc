#include "service/access_log/access_log_metrics.h"

namespace service::access_log {

namespace {
using LC = runtime::LineLogCounters;
using runtime::counter;

constexpr runtime::Metric<LC> kFamilies[] = {
    counter("decisiond_access_log_written_total", "Access log lines written, by core.", &LC::lines_written),
    counter("decisiond_access_log_written_bytes_total", "Access log bytes written, by core.", &LC::bytes_written),
    counter("decisiond_access_log_dropped_total",
            "Access log lines lost (past the pending bound while the disk refused, or at shutdown), by core.",
            &LC::lines_dropped),
    counter("decisiond_access_log_write_errors_total", "Access log writes, syncs or opens the kernel refused, by core.",
            &LC::write_errors),
    counter("decisiond_access_log_write_waits_total",
            "Loop turns whose access log lines waited in memory because every write buffer was in flight (a stalled "
            "disk), by core.",
            &LC::writes_waited),
};
}  // namespace

constinit const runtime::MetricTable<runtime::LineLogCounters> kAccessLogMetricTable = kFamilies;

}  // namespace service::access_log
