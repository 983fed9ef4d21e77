#include "tracking/events/event_log_metrics.h"

namespace tracking::events {

namespace {
using LC = EventLogCounters;
using runtime::counter;
using runtime::gauge;

uint64_t sync_bucket(const LC& counters, uint32_t, size_t b) { return counters.sync_buckets[b].get(); }
uint64_t sync_sum_ns(const LC& counters, uint32_t) { return counters.sync_ns_sum.get(); }
constexpr runtime::MetricHistogram<LC> kSyncs{kSyncBucketsUs, 1e-6, &sync_bucket, &sync_sum_ns, 1e-9};

constexpr runtime::Metric<LC> kFamilies[] = {
    counter("decisiond_events_written_total", "Event log lines written, by core.", &LC::events_written),
    counter("decisiond_events_written_bytes_total", "Event log bytes written, by core.", &LC::bytes_written),
    counter("decisiond_events_dropped_total",
            "Event log lines lost (past the pending bound while the disk refused, or at shutdown), by core.",
            &LC::events_dropped),
    counter("decisiond_events_write_errors_total", "Event log writes, syncs or opens the kernel refused, by core.",
            &LC::write_errors),
    counter("decisiond_events_write_waits_total",
            "Loop turns whose event log lines waited in memory because every write buffer was in flight (a stalled "
            "disk), by core.",
            &LC::writes_waited),
    counter("decisiond_events_syncs_total", "Event log fdatasyncs, by core.", &LC::syncs),
    gauge("decisiond_events_sync_last_seconds", "Duration of the last event log fdatasync, by core.",
          &LC::sync_latency_us, 1e-6),
    gauge("decisiond_events_sync_max_seconds", "Longest event log fdatasync since start, by core.",
          &LC::sync_latency_us_max, 1e-6),
    gauge("decisiond_events_pending_bytes", "Event log bytes appended and not yet written, by core.",
          &LC::pending_bytes),
    {.name = "decisiond_events_sync_duration_seconds", .type = runtime::MetricType::kHistogram,
     .help = "Event log fdatasync durations (all cores).", .scope = runtime::MetricScope::kAllCores,
     .histogram = &kSyncs},
};

constexpr runtime::Metric<EventLog> kHealthFamilies[] = {
    {.name = "decisiond_events_log_healthy", .type = runtime::MetricType::kGauge,
     .help = "1 while the core's event log writes succeed, 0 while the disk refuses.",
     .read = [](const EventLog& log, uint32_t) -> uint64_t { return log.healthy() ? 1 : 0; }},
};
}  // namespace

constinit const runtime::MetricTable<EventLogCounters> kEventLogMetricTable = kFamilies;
constinit const runtime::MetricTable<EventLog> kEventLogHealthMetricTable = kHealthFamilies;

}  // namespace tracking::events
