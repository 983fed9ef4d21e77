#pragma once
// What /metrics exports about a node's catalog from NATS (--catalog=nats://...): the
// connection, why the node waits, the fetches. Registered only with such a catalog; the
// revision served is decisiond_catalog_revision, with the other catalog families
// (catalog_metrics.h).
#include "runtime/metric_source.h"
#include "service/catalog_updates/nats_catalog_source.h"

namespace service {

extern const runtime::MetricTable<NatsCatalogSource> kNatsCatalogMetricTable;

}  // namespace service
