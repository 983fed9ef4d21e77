#include "tracking/endpoint/tracking_metrics.h"

namespace tracking::endpoint {

namespace {
using TC = TrackingCounters;
using runtime::counter;

// Calls accepted by kind, on the receiving core.
constexpr runtime::MetricRow<TC> kCallKinds[] = {
    {R"(kind="impression")", &TC::impressions}, {R"(kind="click")", &TC::clicks},
    {R"(kind="custom")", &TC::custom_events},   {R"(kind="video")", &TC::video_events},
    {R"(kind="error")", &TC::errors},           {R"(kind="other")", &TC::other_kinds},
};

constexpr runtime::Metric<TC> kFamilies[] = {
    counter("decisiond_tracking_rejected_versions_total", "Tracking calls refused for their version header, by core.",
            &TC::rejected_versions),
    counter("decisiond_tracking_invalid_tokens_total", "Tracking calls answered 400 10050, by core.",
            &TC::invalid_tokens),
    counter("decisiond_tracking_expired_tokens_total", "Tracking calls answered 410 10051, by core.",
            &TC::expired_tokens),
    // cross-core asks
    counter("decisiond_tracking_forwarded_total", "Impressions handed to the core that counts them, by receiving core.",
            &TC::forwarded),
    counter("decisiond_tracking_cross_core_asks_refused_total",
            "Impression calls answered 503 10098 because the bound of impressions handed to other cores was reached, "
            "by core.",
            &TC::asks_refused),
    // end of cross-core asks
    {.name = "decisiond_tracking_calls_total", .type = runtime::MetricType::kCounter,
     .help = "Tracking calls accepted (repeats included), by kind and receiving core; other: "
             "verification_not_executed and kinds unknown to this build.",
     .rows = kCallKinds},
};
}  // namespace

constinit const runtime::MetricTable<TrackingCounters> kTrackingMetricTable = kFamilies;

}  // namespace tracking::endpoint
