#pragma once
// What /metrics exports of the snapshot writer's counters (snapshot_writer.h), by core.
#include "runtime/metric_source.h"
#include "tracking/state/snapshot_writer.h"

namespace tracking::state {

extern const runtime::MetricTable<SnapshotCounters> kSnapshotMetricTable;

}  // namespace tracking::state
