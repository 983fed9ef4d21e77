#pragma once
// Entries and bytes of one core's cap and dedup partitions (core_state.h), refreshed every
// tick by the core's sweeper; and what /metrics exports of them, by core.
#include "runtime/core_counter.h"
#include "runtime/metric_source.h"

namespace tracking::state {

struct StateGauges {
  runtime::CoreCounter cap_entries, cap_bytes, cap_reclaimed, dedup_entries, dedup_bytes, dedup_reclaimed;
};

extern const runtime::MetricTable<StateGauges> kStateGaugeMetricTable;

}  // namespace tracking::state
