#include "decision/explain/explain_metrics.h"

namespace decision::explain {

namespace {
using EC = ExplainCounters;
using runtime::counter;

constexpr runtime::Metric<EC> kFamilies[] = {
    counter("decisiond_explains_total", "Explains served (200), by core.", &EC::explains),
    counter("decisiond_explain_rejected_versions_total",
            "Explain requests refused for their version header (400 10042, 410 10043), by core.",
            &EC::rejected_versions),
    counter("decisiond_explain_wrong_media_type_total", "Explain requests refused with 415, by core.",
            &EC::wrong_media_type),
    counter("decisiond_explain_invalid_bodies_total", "Explain bodies refused (400 10001, 422), by core.",
            &EC::invalid_bodies),
    counter("decisiond_explain_bodies_too_large_total",
            "Explain bodies past the public listener's body limit (413 10003), by core.", &EC::bodies_too_large),
};

// What the explain handler's cross-core asks count (runtime/cross_core_asks.h).
using AC = runtime::AskCounters;
constexpr runtime::Metric<AC> kAskFamilies[] = {
    counter("decisiond_explain_forwarded_total",
            "Explains handed to the core owning their user, by the core that received them.", &AC::sent),
    counter("decisiond_explain_served_for_peers_total", "Explains run for another core's connection, by the owner core.",
            &AC::served),
    counter("decisiond_explain_cross_core_asks_refused_total",
            "Explains answered 503 10098 because the bound of explains handed to other cores was reached or the queue "
            "to the owner was full, by core.",
            &AC::refused),
    counter("decisiond_explain_cross_core_asks_abandoned_total",
            "Forwarded explains whose client had gone when the owner answered, by core.", &AC::abandoned),
};
}  // namespace

constinit const runtime::MetricTable<ExplainCounters> kExplainMetricTable = kFamilies;
constinit const runtime::MetricTable<runtime::AskCounters> kExplainAskMetricTable = kAskFamilies;

}  // namespace decision::explain
