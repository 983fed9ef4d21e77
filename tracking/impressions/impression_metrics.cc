#include "tracking/impressions/impression_metrics.h"

namespace tracking::impressions {

namespace {
using IC = ImpressionCounters;
using runtime::counter;

constexpr runtime::Metric<IC> kFamilies[] = {
    counter("decisiond_impressions_counted_total", "Impressions counted (first call of their token), by owner core.",
            &IC::counted),
    counter("decisiond_impressions_duplicate_total",
            "Impression calls of a token already counted (answered 204, not counted), by owner core.",
            &IC::duplicates),
};
}  // namespace

constinit const runtime::MetricTable<ImpressionCounters> kImpressionMetricTable = kFamilies;

}  // namespace tracking::impressions
