// Per-request geography: a GeoIP look-up of the user's IP (libmaxminddb over GeoIP2's test
// database; decoded each time, and through a core's record cache) and the widening of a city through the GeoNames hierarchy. Both run once per
// request (or placement) whenever the server has the data, whatever the catalog targets.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdio>
#include <string>

#include "decision/geo/geoip_database.h"
#include "decision/geo/geoip_record_cache.h"
#include "decision/geo/geonames_hierarchy.h"
#include "perf/allocation_counter.h"

namespace {

void BM_GeoIpLookup(benchmark::State& state) {
  const auto db = decision::geo::GeoIpDatabase::open(std::string(GEOIP_FIXTURE_DIR) + "/GeoIP2-City-Test.mmdb");
  if (!db.ok()) {
    state.SkipWithError(db.status().ToString().c_str());
    return;
  }
  const std::array<uint8_t, 4> london = {81, 2, 69, 142};
  const perf::AllocationWatch allocations;
  for (auto _ : state) benchmark::DoNotOptimize(db->lookup(london));
  allocations.report(state);
}
BENCHMARK(BM_GeoIpLookup);

// As a core looks up: the record decoded once, then found by its offset.
void BM_GeoIpLookupCached(benchmark::State& state) {
  const auto db = decision::geo::GeoIpDatabase::open(std::string(GEOIP_FIXTURE_DIR) + "/GeoIP2-City-Test.mmdb");
  if (!db.ok()) {
    state.SkipWithError(db.status().ToString().c_str());
    return;
  }
  decision::geo::GeoIpRecordCache cache;
  const std::array<uint8_t, 4> london = {81, 2, 69, 142};
  const perf::AllocationWatch allocations;
  for (auto _ : state) benchmark::DoNotOptimize(cache.lookup(*db, london));
  allocations.report(state);
}
BENCHMARK(BM_GeoIpLookupCached);

void BM_GeoNamesWiden(benchmark::State& state) {
  const auto hierarchy = decision::geo::GeoNamesHierarchy::load_dir(GEONAMES_FIXTURE_DIR);
  if (!hierarchy.ok()) {
    state.SkipWithError(hierarchy.status().ToString().c_str());
    return;
  }
  std::array<uint64_t, decision::geo::kMaxWidened> out{};
  for (auto _ : state) benchmark::DoNotOptimize(hierarchy->widen(2988507, out));  // Paris
}
BENCHMARK(BM_GeoNamesWiden);

}  // namespace
