#include "tracking/state/state_gauges.h"

namespace tracking::state {

namespace {
using SG = StateGauges;
using runtime::counter;
using runtime::gauge;

constexpr runtime::Metric<SG> kStateGaugeFamilies[] = {
    gauge("decisiond_cap_entries", "Frequency-cap entries held, by core.", &SG::cap_entries),
    gauge("decisiond_cap_bytes", "Bytes held by the frequency-cap partition, by core.", &SG::cap_bytes),
    counter("decisiond_cap_entries_reclaimed_total", "Expired frequency-cap entries reclaimed, by core.",
            &SG::cap_reclaimed),
    gauge("decisiond_dedup_entries", "Impression tokens remembered as counted, by core.", &SG::dedup_entries),
    gauge("decisiond_dedup_bytes", "Bytes held by the impression dedup set, by core.", &SG::dedup_bytes),
    counter("decisiond_dedup_entries_reclaimed_total", "Expired dedup entries reclaimed, by core.",
            &SG::dedup_reclaimed),
};
}  // namespace

constinit const runtime::MetricTable<StateGauges> kStateGaugeMetricTable = kStateGaugeFamilies;

}  // namespace tracking::state
