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
    // cross-core asks
    counter("decisiond_explain_forwarded_total",
            "Explains handed to the core owning their user, by the core that received them.", &EC::forwarded),
    counter("decisiond_explain_served_for_peers_total",
            "Explains run for another core's connection, by the owner core.", &EC::served_for_peers),
    counter("decisiond_explain_cross_core_asks_refused_total",
            "Explains answered 503 10098 because the bound of explains handed to other cores was reached or the "
            "queue to the owner was full, by core.",
            &EC::asks_refused),
    counter("decisiond_explain_cross_core_asks_abandoned_total",
            "Forwarded explains whose client had gone when the owner answered, by core.", &EC::asks_abandoned),
    counter("decisiond_explain_answers_delayed_total",
            "Explain answers that found the queue home full and waited for the owner core's next explain, by owner "
            "core.",
            &EC::answers_delayed),
};
}  // namespace

constinit const runtime::MetricTable<ExplainCounters> kExplainMetricTable = kFamilies;

}  // namespace decision::explain
