#include "decision/pacing/redis_ledger/ledger_metrics.h"

namespace decision::pacing::redis_ledger {

namespace {
using LC = LedgerCounters;
using runtime::counter;

constexpr runtime::Metric<LC> kLedgerFamilies[] = {
    counter("decisiond_pacing_leases_total",
            "Cluster mode: goals' slices leased from the Redis Cluster (one per goal and round), by core.", &LC::leases),
    counter("decisiond_pacing_lease_failures_total",
            "Cluster mode: leases not answered in time or refused: the goal is not served by this node for that "
            "slice, and its count is reported again next round, by core.",
            &LC::failures),
};
}  // namespace

constinit const runtime::MetricTable<LedgerCounters> kLedgerMetricTable = kLedgerFamilies;

}  // namespace decision::pacing::redis_ledger
