#include "decision/vast_tag/vast_tag_metrics.h"

namespace decision::vast_tag {

namespace {
using VC = VastTagCounters;
using runtime::counter;

constexpr runtime::Metric<VC> kFamilies[] = {
    counter("decisiond_vast_documents_total", "VAST tag fetches answered with the ad's document, by core.",
            &VC::documents),
    counter("decisiond_vast_no_fills_total",
            "VAST tag fetches answered with the no-fill document (the ad has left), by core.", &VC::no_fills),
    counter("decisiond_vast_bad_signatures_total", "VAST tag fetches answered 403 10052, by core.",
            &VC::bad_signatures),
    counter("decisiond_vast_expired_total", "VAST tag fetches answered 410 10053, by core.", &VC::expired),
    counter("decisiond_vast_token_failures_total",
            "VAST tag fetches answered 500 because a tracking token could not be sealed, by core.",
            &VC::token_failures),
};
}  // namespace

constinit const runtime::MetricTable<VastTagCounters> kVastTagMetricTable = kFamilies;

}  // namespace decision::vast_tag
