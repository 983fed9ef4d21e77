#include "tracking/impression_sink/impression_sink_metrics.h"

namespace tracking::impression_sink {

namespace {
using S = ImpressionSink;

constexpr runtime::Metric<S> kFamilies[] = {
    {.name = "decisiond_impressions_counted_total",
     .type = runtime::MetricType::kCounter,
     .help = "Impressions counted (the first call of their token), by core and by where they are counted "
             "(state=\"core\": the core owning the impression; state=\"cluster\": the shared cap store, by the core "
             "that sent it).",
     .read = [](const S& sink, uint32_t) { return sink.counted(); }},
    {.name = "decisiond_impressions_duplicate_total",
     .type = runtime::MetricType::kCounter,
     .help = "Impression calls of a token already counted (answered 204, not counted), by core and state, as "
             "decisiond_impressions_counted_total.",
     .read = [](const S& sink, uint32_t) { return sink.duplicates(); }},
    {.name = "decisiond_impressions_refused_total",
     .type = runtime::MetricType::kCounter,
     .help = "Impressions their state's keeper did not take, by core: state=\"core\", answered 503 10098 at the "
             "bound of impressions handed to other cores; state=\"cluster\", not taken by the shared cap store in "
             "time (answered 204, kept and applied again).",
     .read = [](const S& sink, uint32_t) { return sink.refused(); }},
};
}  // namespace

constinit const runtime::MetricTable<ImpressionSink> kImpressionSinkMetricTable = kFamilies;

}  // namespace tracking::impression_sink
