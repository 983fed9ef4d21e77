#include "tracking/shared_impressions/shared_impression_metrics.h"

namespace tracking::shared_impressions {

namespace {

using C = SharedImpressionCounters;

constexpr runtime::Metric<C> kMetrics[] = {
    runtime::counter("decisiond_shared_impressions_total",
                     "Cluster mode: impressions the shared cap store counted (first sightings), by core", &C::counted),
    runtime::counter("decisiond_shared_impression_duplicates_total",
                     "Cluster mode: impressions the shared cap store recognised as repeats, by core", &C::duplicates),
    runtime::counter("decisiond_shared_impressions_unapplied_total",
                     "Cluster mode: impressions the shared cap store did not take in time, kept to apply again",
                     &C::unapplied),
    runtime::counter("decisiond_shared_impressions_reapplied_total",
                     "Cluster mode: kept impressions the shared cap store has since taken", &C::reapplied),
    runtime::gauge("decisiond_shared_impressions_reapply_backlog",
                   "Cluster mode: impressions kept in memory, waiting to be applied again", &C::backlog),
    runtime::counter("decisiond_shared_impressions_reapply_overflow_total",
                     "Cluster mode: unapplied impressions past the memory bound, applied at the next start from the log",
                     &C::overflowed),
};

}  // namespace

const runtime::MetricTable<SharedImpressionCounters> kSharedImpressionMetricTable = kMetrics;

}  // namespace tracking::shared_impressions
