#include "tracking/state/snapshot_metrics.h"

namespace tracking::state {

namespace {
using SC = SnapshotCounters;
using runtime::counter;
using runtime::gauge;

constexpr runtime::Metric<SC> kSnapshotFamilies[] = {
    counter("decisiond_snapshots_written_total", "Cap and dedup snapshots written, by core.", &SC::written),
    counter("decisiond_snapshots_failed_total", "Snapshots abandoned because the disk refused, by core.", &SC::failed),
    gauge("decisiond_snapshot_last_bytes", "Size of the last snapshot, by core.", &SC::last_bytes),
    gauge("decisiond_snapshot_last_duration_seconds", "Time the last snapshot took to write, by core.",
          &SC::last_duration_ms, 1e-3),
};
}  // namespace

constinit const runtime::MetricTable<SnapshotCounters> kSnapshotMetricTable = kSnapshotFamilies;

}  // namespace tracking::state
