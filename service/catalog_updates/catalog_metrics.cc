#include "service/catalog_updates/catalog_metrics.h"

#include <iterator>

namespace service {

namespace {
using runtime::Metric;
using runtime::MetricType;
using Read = uint64_t (*)(const CatalogInForce&, uint32_t);
constexpr MetricType kGauge = MetricType::kGauge;
constexpr MetricType kCounter = MetricType::kCounter;
constexpr runtime::MetricScope kAnswering = runtime::MetricScope::kAnswering;

struct Format {
  const char* name;
  decision::catalog::Format index;  // into decision::endpoint::FormatCounts
};
constexpr Format kFormats[] = {{"native", decision::catalog::Format::kNative}, {"video", decision::catalog::Format::kVideo}};

void formats(const CatalogInForce&, runtime::MetricSeriesList& out) {
  for (uint32_t i = 0; i < std::size(kFormats); ++i) out.add(i, {{"format", kFormats[i].name}});
}
uint64_t ads(const CatalogInForce& c, uint32_t i) { return c.served->ads_by_format[static_cast<size_t>(kFormats[i].index)]; }
uint64_t placements_with_ads(const CatalogInForce& c, uint32_t i) {
  return c.served->placements_by_format[static_cast<size_t>(kFormats[i].index)];
}

void revision(const CatalogInForce& c, runtime::MetricSeriesList& out) {
  out.add(0, {{"revision", c.served->snapshot->revision()}});
}

template <auto kStat>
uint64_t stat(const CatalogInForce& c, uint32_t) {
  return static_cast<uint64_t>((c.updates.*kStat).load());
}

struct KeyReloadCount {
  const char* name;
  std::atomic<uint64_t> UpdateStats::*count;
};
constexpr KeyReloadCount kKeyReloadResults[] = {{"applied", &UpdateStats::keys_applied},
                                                 {"unchanged", &UpdateStats::keys_unchanged},
                                                 {"refused", &UpdateStats::keys_refused}};

void key_reload_results(const CatalogInForce&, runtime::MetricSeriesList& out) {
  for (uint32_t i = 0; i < std::size(kKeyReloadResults); ++i) out.add(i, {{"result", kKeyReloadResults[i].name}});
}
uint64_t key_reloads(const CatalogInForce& c, uint32_t i) { return (c.updates.*kKeyReloadResults[i].count).load(); }

constexpr Metric<CatalogInForce> fact(std::string_view name, MetricType type, std::string_view help, Read read) {
  return {.name = name, .type = type, .help = help, .scope = kAnswering, .read = read};
}

constexpr Metric<CatalogInForce> by_format(std::string_view name, std::string_view help, Read read) {
  Metric<CatalogInForce> m = fact(name, MetricType::kGauge, help, read);
  m.series = &formats;
  return m;
}

constexpr Metric<CatalogInForce> kCatalogFamilies[] = {
    {.name = "decisiond_catalog_info", .type = kGauge, .help = "Constant 1, labelled with the catalog revision in force.",
     .scope = kAnswering, .series = &revision,
     .read = [](const CatalogInForce&, uint32_t) -> uint64_t { return 1; }},
    {.name = "decisiond_catalog_age_seconds", .type = kGauge, .help = "Seconds since the catalog in force was published.",
     .scope = kAnswering, .read = &stat<&UpdateStats::catalog_loaded_wall_s>, .age = true},
    {.name = "decisiond_catalog_load_seconds", .type = kGauge,
     .help = "How long the catalog in force took to read, validate, index and compile.", .scope = kAnswering,
     .read = &stat<&UpdateStats::catalog_load_ms>, .unit = 1e-3},
    by_format("decisiond_catalog_ads", "Ads in the catalog in force, by format.", &ads),
    fact("decisiond_catalog_placements", kGauge, "Placements in the catalog in force.",
         [](const CatalogInForce& c, uint32_t) -> uint64_t { return c.served->snapshot->placements().size(); }),
    by_format("decisiond_catalog_placements_with_ads",
              "Placements of the catalog in force with at least one ad of the format (a placement may count in both).",
              &placements_with_ads),
    fact("decisiond_catalog_revision", kGauge,
         "The NATS revision in force (--catalog=nats://...); 0 for a file, an upload, or while none is served yet.",
         &stat<&UpdateStats::catalog_revision>),
    fact("decisiond_catalog_updates_total", kCounter, "Catalogs published, the one started with included.",
         &stat<&UpdateStats::catalogs_published>),
    fact("decisiond_catalog_refusals_total", kCounter,
         "Catalogs refused (SIGHUP, POST /admin/catalog or a NATS revision); the one in force stayed.",
         &stat<&UpdateStats::catalogs_refused>),
    fact("decisiond_catalog_last_refusal_timestamp_seconds", kGauge,
         "When a catalog was last refused, Unix seconds; 0: none since start.", &stat<&UpdateStats::last_refusal_wall_s>),
    fact("decisiond_catalog_last_refusal_errors", kGauge, "Errors found in the last refused catalog.",
         &stat<&UpdateStats::last_refusal_errors>),
    fact("decisiond_geoip_reloads_total", kCounter, "GeoIP databases re-opened on SIGHUP and published.",
         &stat<&UpdateStats::geoip_reloads>),
    fact("decisiond_geoip_refusals_total", kCounter,
         "GeoIP databases that did not open on SIGHUP; the one in force stayed.", &stat<&UpdateStats::geoip_refusals>),
    {.name = "decisiond_keys_reloads_total", .type = kCounter,
     .help = "keys.json re-read on SIGHUP: applied (published to every core), unchanged, or refused (the keys in "
             "force stayed).",
     .scope = kAnswering, .series = &key_reload_results, .read = &key_reloads},
};
}  // namespace

constinit const runtime::MetricTable<CatalogInForce> kCatalogMetricTable = kCatalogFamilies;

}  // namespace service
