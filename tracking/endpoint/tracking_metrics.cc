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

constexpr runtime::Metric<TC> kVerdictFamilies[] = {
    counter("decisiond_tracking_rejected_versions_total", "Tracking calls refused for their version header, by core.",
            &TC::rejected_versions),
    counter("decisiond_tracking_invalid_tokens_total", "Tracking calls answered 400 10050, by core.",
            &TC::invalid_tokens),
    counter("decisiond_tracking_expired_tokens_total", "Tracking calls answered 410 10051, by core.",
            &TC::expired_tokens),
    counter("decisiond_tracking_robots_total",
            "Tracking calls from declared robots: answered, logged with \"invalid\":\"robot\", counted toward "
            "nothing (not in decisiond_tracking_calls_total), by core.",
            &TC::robots),
    counter("decisiond_tracking_too_fast_total",
            "Impressions called sooner after their decision than --min-impression-delay: answered, logged with "
            "\"invalid\":\"too_fast\", counted toward nothing, by core.",
            &TC::too_fast),
};

// What the impression asks count (runtime/cross_core_asks.h); on the page between the
// verdicts and the calls, where they have always been.
using AC = runtime::AskCounters;
constexpr runtime::Metric<AC> kAskFamilies[] = {
    counter("decisiond_tracking_forwarded_total", "Impressions handed to the core that counts them, by receiving core.",
            &AC::sent),
    counter("decisiond_tracking_cross_core_asks_refused_total",
            "Impression calls answered 503 10098 because the bound of impressions handed to other cores was reached, "
            "by core.",
            &AC::refused),
};

constexpr runtime::Metric<TC> kCallFamilies[] = {
    {.name = "decisiond_tracking_calls_total", .type = runtime::MetricType::kCounter,
     .help = "Tracking calls accepted (repeats included), by kind and receiving core; other: "
             "verification_not_executed and kinds unknown to this build.",
     .rows = kCallKinds},
};
}  // namespace

constinit const runtime::MetricTable<TrackingCounters> kTrackingMetricTable = kVerdictFamilies;
constinit const runtime::MetricTable<runtime::AskCounters> kImpressionAskMetricTable = kAskFamilies;
constinit const runtime::MetricTable<TrackingCounters> kTrackingCallMetricTable = kCallFamilies;

}  // namespace tracking::endpoint
