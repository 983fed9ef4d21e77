#include "runtime/one_way_post_metrics.h"

namespace runtime {

namespace {
constexpr Metric<OneWayCounters> kFamilies[] = {
    counter("decisiond_one_way_posts_kept_total",
            "One-way messages from the core (a drain notice, a snapshot step) that found their queue's share full and "
            "waited in the core's outbox for a later loop turn, by core.",
            &OneWayCounters::kept),
    counter("decisiond_one_way_posts_waited_total",
            "Messages of the main thread to the core (a catalog publication, an upload's answer, shutdown) that "
            "waited for the core to make room in its queue, by core.",
            &OneWayCounters::waited),
};
}  // namespace

constinit const MetricTable<OneWayCounters> kOneWayPostMetricTable = kFamilies;

}  // namespace runtime
