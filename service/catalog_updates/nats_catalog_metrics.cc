#include "service/catalog_updates/nats_catalog_metrics.h"

namespace service {

namespace {
using runtime::Metric;
using runtime::MetricScope;
using runtime::MetricType;

template <auto kCounter>
uint64_t counted(const NatsCatalogSource& source, uint32_t) {
  return (source.counters().*kCounter).load(std::memory_order_relaxed);
}

constexpr Metric<NatsCatalogSource> kNatsCatalogFamilies[] = {
    {.name = "decisiond_catalog_nats_connected", .type = MetricType::kGauge,
     .help = "1 while the connection to the NATS servers of --catalog is up.", .scope = MetricScope::kAnswering,
     .read = [](const NatsCatalogSource& s, uint32_t) -> uint64_t { return s.connected() ? 1 : 0; }},
    {.name = "decisiond_catalog_waiting", .type = MetricType::kGauge,
     .help = "Why the node serves no catalog of its own yet (unready): 0 it serves one, 1 no NATS server answers, "
             "2 nothing published under the name, 3 fetching, 4 the latest revision failed here.",
     .scope = MetricScope::kAnswering,
     .read = [](const NatsCatalogSource& s, uint32_t) -> uint64_t { return static_cast<uint64_t>(s.wait()); }},
    {.name = "decisiond_catalog_fetches_total", .type = MetricType::kCounter,
     .help = "Revisions fetched whole from NATS, their size and SHA-256 checked.", .scope = MetricScope::kAnswering,
     .read = &counted<&NatsCatalogCounters::fetched>},
    {.name = "decisiond_catalog_fetch_failures_total", .type = MetricType::kCounter,
     .help = "Revisions whose chunks were missing, late or did not add up to the record; the catalog in force stayed.",
     .scope = MetricScope::kAnswering, .read = &counted<&NatsCatalogCounters::fetch_failures>},
    {.name = "decisiond_catalog_fetch_seconds", .type = MetricType::kGauge,
     .help = "How long the last revision fetched took to fetch and check.", .scope = MetricScope::kAnswering,
     .read = &counted<&NatsCatalogCounters::fetch_ms>, .unit = 1e-3},
};
}  // namespace

constinit const runtime::MetricTable<NatsCatalogSource> kNatsCatalogMetricTable = kNatsCatalogFamilies;

}  // namespace service
