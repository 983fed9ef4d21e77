#include "tracking/event_shipping/ship_metrics.h"
#include "runtime/clock.h"

#include <chrono>

namespace tracking::event_shipping {

namespace {
using CC = ShipCoreCounters;
using SC = ShipperCounters;
using runtime::counter;
using runtime::gauge;
using runtime::MetricType;
constexpr runtime::MetricScope kAnswering = runtime::MetricScope::kAnswering;

// The age at the scrape, not at the shipper's last pass: a stalled shipper shows a lag that grows.
uint64_t lag_ms(const CC& c, uint32_t) {
  const uint64_t oldest = c.oldest_unshipped_ms.get();
  if (oldest == 0) return 0;
  const int64_t now = runtime::SystemClock::instance().wall_ms();
  return static_cast<uint64_t>(now) > oldest ? static_cast<uint64_t>(now) - oldest : 0;
}

constexpr runtime::Metric<CC> kCoreFamilies[] = {
    {.name = "decisiond_events_ship_lag_seconds", .type = MetricType::kGauge,
     .help = "Age of the oldest event log line written and not yet acknowledged by the stream (0: caught up), by core.",
     .read = &lag_ms, .unit = 1e-3},
    gauge("decisiond_events_ship_lines_behind",
          "Event log sequence numbers written and not yet acknowledged by the stream, by core.", &CC::lines_behind),
    gauge("decisiond_events_ship_bytes_behind", "Event log bytes written and not yet acknowledged by the stream, by core.",
          &CC::bytes_behind),
    counter("decisiond_events_shipped_lines_total", "Event log lines the stream acknowledged, by core.",
            &CC::lines_shipped),
    counter("decisiond_events_ship_torn_lines_total", "Event log lines passed over as not whole, by core.",
            &CC::torn_lines),
    counter("decisiond_events_files_removed_total",
            "Event log files removed: shipped, older than --events-retain and not read at start, by core.",
            &CC::files_removed),
};

constexpr runtime::Metric<SC> fact(std::string_view name, MetricType type, std::string_view help,
                                   const runtime::CoreCounter SC::*value) {
  return {.name = name, .type = type, .help = help, .scope = kAnswering, .counter = value};
}

constexpr runtime::Metric<SC> kNodeFamilies[] = {
    fact("decisiond_events_sink_connection_state", MetricType::kGauge,
         "The events sink connection: 0 connecting, 1 connected, 2 disconnected, 3 closed (reopened), 4 credentials "
         "refused.",
         &SC::connection_state),
    fact("decisiond_events_sink_stream_state", MetricType::kGauge,
         "The events stream: 0 not set up yet, 1 created, 2 used as it is, 3 used as it is with other settings, 4 "
         "cannot be created or looked up.",
         &SC::stream_state),
    fact("decisiond_events_ship_publish_errors_total", MetricType::kCounter,
         "Event lines the stream refused, or did not acknowledge in time.", &SC::publish_errors),
    fact("decisiond_events_ship_republished_lines_total", MetricType::kCounter,
         "Event lines published again (same message id) after an error, a timeout or a reconnection.",
         &SC::republished_lines),
    fact("decisiond_events_ship_duplicates_total", MetricType::kCounter,
         "Acknowledgements saying the stream held the message id already (dropped as a duplicate).", &SC::duplicates),
    fact("decisiond_events_ship_read_backs_total", MetricType::kCounter,
         "Reads of the stream for this node's message ids before publishing again (at start, after a failure).",
         &SC::read_backs),
    fact("decisiond_events_ship_read_back_lines_total", MetricType::kCounter,
         "Event lines a read-back found in the stream, so not published again.", &SC::read_back_lines),
    fact("decisiond_events_ship_checkpoint_errors_total", MetricType::kCounter,
         "Shipping checkpoints the disk refused (the previous one stays).", &SC::checkpoint_errors),
    fact("decisiond_events_ship_log_errors_total", MetricType::kCounter,
         "Reads or syncs of an event log file the disk refused (tried again).", &SC::log_errors),
};
}  // namespace

constinit const runtime::MetricTable<ShipCoreCounters> kShipCoreMetricTable = kCoreFamilies;
constinit const runtime::MetricTable<ShipperCounters> kShipperMetricTable = kNodeFamilies;

}  // namespace tracking::event_shipping
