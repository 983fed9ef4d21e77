#include "runtime/reactor_load_metrics.h"

namespace runtime {

namespace {
constexpr Metric<ReactorLoad> kFamilies[] = {
    counter("decisiond_reactor_busy_seconds_total",
            "Time the core's reactor spent working (not waiting for completions or messages), by core.",
            &ReactorLoad::busy_ns, 1e-9),
    counter("decisiond_reactor_wait_seconds_total",
            "Time the core's reactor spent waiting for work: polling its mailbox and asleep in io_uring_enter, by "
            "core.",
            &ReactorLoad::wait_ns, 1e-9),
};
}  // namespace

constinit const MetricTable<ReactorLoad> kReactorLoadMetricTable = kFamilies;

}  // namespace runtime
