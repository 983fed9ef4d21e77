#include "tracking/shared_impressions/shared_impression_metrics.h"

namespace tracking::shared_impressions {

namespace {

using C = SharedImpressionCounters;

constexpr runtime::Metric<C> kMetrics[] = {
    runtime::counter("decisiond_shared_impressions_reapplied_total",
                     "Cluster mode: kept impressions the shared cap store has since taken", &C::reapplied),
    runtime::gauge("decisiond_shared_impressions_reapply_backlog",
                   "Cluster mode: impressions kept in memory, waiting to be applied again", &C::backlog),
    runtime::counter("decisiond_shared_impressions_reapply_overflow_total",
                     "Cluster mode: unapplied impressions past the memory bound, applied at the next start from the log",
                     &C::overflowed),
};

constexpr runtime::Metric<C> kAliases[] = {
    runtime::counter("decisiond_shared_impressions_total",
                     "Deprecated alias of decisiond_impressions_counted_total{state=\"cluster\"}, removed in the "
                     "release after next.",
                     &C::counted),
    runtime::counter("decisiond_shared_impression_duplicates_total",
                     "Deprecated alias of decisiond_impressions_duplicate_total{state=\"cluster\"}, removed in the "
                     "release after next.",
                     &C::duplicates),
    runtime::counter("decisiond_shared_impressions_unapplied_total",
                     "Deprecated alias of decisiond_impressions_refused_total{state=\"cluster\"}, removed in the "
                     "release after next.",
                     &C::unapplied),
};

}  // namespace

const runtime::MetricTable<SharedImpressionCounters> kSharedImpressionMetricTable = kMetrics;
const runtime::MetricTable<SharedImpressionCounters> kSharedImpressionAliasMetricTable = kAliases;

}  // namespace tracking::shared_impressions
