#pragma once
// The goals' ledger on /metrics (cluster mode, the coordinating core only).
#include "decision/pacing/redis_ledger/redis_goal_ledger.h"
#include "runtime/metric_source.h"

namespace decision::pacing::redis_ledger {

extern const runtime::MetricTable<LedgerCounters> kLedgerMetricTable;

}  // namespace decision::pacing::redis_ledger
