#pragma once
// An impression sink's families (impression_sink.h): the same in both modes, registered
// with a state="core" (embedded mode: counted by the owner core) or state="cluster" (counted
// by the shared cap store) label.
#include "runtime/metric_source.h"
#include "tracking/impression_sink/impression_sink.h"

namespace tracking::impression_sink {

extern const runtime::MetricTable<ImpressionSink> kImpressionSinkMetricTable;

}  // namespace tracking::impression_sink
