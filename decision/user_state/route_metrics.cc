#include "decision/user_state/route_metrics.h"

namespace decision::user_state {

namespace {
using RC = RouteCounters;
using runtime::counter;

constexpr runtime::Metric<RC> kFamilies[] = {
    counter("decisiond_cap_reads_total",
            "Users' cap states read for decisions, by core and by where the state lives (state=\"core\": the partition "
            "of the core owning the user, counted there; state=\"cluster\": the shared cap store, counted where the "
            "decision waits).",
            &RC::reads),
    counter("decisiond_cap_reads_refused_total",
            "Decisions whose user's cap state could not be had, by core: state=\"core\", answered 503 10098 at the "
            "bound of decisions handed to other cores; state=\"cluster\", made without their capped ads because the "
            "shared cap store did not answer within --caps-timeout (or too many decisions were waiting for it).",
            &RC::refused),
};

constexpr runtime::Metric<RC> kAliases[] = {
    counter("decisiond_caps_store_unavailable_total",
            "Deprecated alias of decisiond_cap_reads_refused_total{state=\"cluster\"}, removed in the release after "
            "next.",
            &RC::refused),
};
}  // namespace

constinit const runtime::MetricTable<RouteCounters> kRouteMetricTable = kFamilies;
constinit const runtime::MetricTable<RouteCounters> kRouteAliasMetricTable = kAliases;

}  // namespace decision::user_state
