#pragma once
// What /metrics exports of each core's keys in force (core_keys.h), by core: after a
// reload, every core shows the new signing key once it has adopted it.
#include "runtime/metric_source.h"
#include "tracking/core_keys/core_keys.h"

namespace tracking {

extern const runtime::MetricTable<CoreKeyGauges> kCoreKeysMetricTable;

}  // namespace tracking
