#pragma once
// What /metrics exports of the VAST tag handler's counters (vast_tag_handler.h), by core.
#include "decision/vast_tag/vast_tag_handler.h"
#include "runtime/metric_source.h"

namespace decision::vast_tag {

extern const runtime::MetricTable<VastTagCounters> kVastTagMetricTable;

}  // namespace decision::vast_tag
