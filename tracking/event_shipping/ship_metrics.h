#pragma once
// What /metrics exports of the event shipper: the per-core table (each core registers its
// own counters) and the node's (every core registers the same object; the answering core's
// is read).
#include "runtime/metric_source.h"
#include "tracking/event_shipping/ship_counters.h"

namespace tracking::event_shipping {

extern const runtime::MetricTable<ShipCoreCounters> kShipCoreMetricTable;
extern const runtime::MetricTable<ShipperCounters> kShipperMetricTable;

}  // namespace tracking::event_shipping
