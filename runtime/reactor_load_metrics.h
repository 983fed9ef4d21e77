#pragma once
// What /metrics exports of a reactor's load (reactor.h): where each core's time goes, by
// core. Utilisation is rate(busy) / (rate(busy) + rate(wait)).
#include "runtime/metric_source.h"
#include "runtime/reactor.h"

namespace runtime {

extern const MetricTable<ReactorLoad> kReactorLoadMetricTable;

}  // namespace runtime
