#pragma once
// What /metrics exports about the catalog in force and the update loop (update_stats.h):
// facts of the process, read from the core answering the scrape, without a core label.
#include <memory>

#include "decision/endpoint/served_catalog.h"
#include "runtime/metric_source.h"
#include "service/catalog_updates/update_stats.h"

namespace service {

// What the catalog families read: the catalog a core serves (a pointer only its own thread
// may read, hence MetricScope::kAnswering; every core serves the same once an update has
// been published) and the update loop's stats.
struct CatalogInForce {
  const std::shared_ptr<const decision::endpoint::ServedCatalog>& served;
  const UpdateStats& updates;
};

extern const runtime::MetricTable<CatalogInForce> kCatalogMetricTable;

}  // namespace service
