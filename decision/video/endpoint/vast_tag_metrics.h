#pragma once
// What /metrics exports of the VAST tag handler's counters (vast_tag_handler.h), by core.
#include "decision/video/endpoint/vast_tag_handler.h"
#include "runtime/metric_source.h"

namespace decision::video {

extern const runtime::MetricTable<VastTagCounters> kVastTagMetricTable;

}  // namespace decision::video
