// The stages of building a 100,000-ad catalog (tools/gen-catalog: 1,000 placements,
// targeting on), as the server builds one at start and for every update
// (service/catalog_updates/catalog_build.h), each timed alone so that their sum can be
// compared with the whole:
//   Parse  simdjson's DOM parse of the text (the loader's first step);
//   Load   decision/catalog's load_catalog: parse, validate, resolve, index (no CEL check);
//   Serve  the served catalog made from that snapshot: pre-escaped text, CEL programs;
//   Whole  build_catalog_from_text, what an upload runs: the above, with each distinct CEL
//          source compiled once more while loading (the check that refuses a bad rule).
// One iteration each (a build takes seconds); --benchmark_repetitions gives the spread.
// What a stage built is freed after its timing ends: the server frees a replaced catalog
// after the swap, on the update loop's thread, not as part of the next build.
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <memory>
#include <string>

#include "decision/catalog/loader.h"
#include "decision/endpoint/placement_labels.h"
#include "decision/endpoint/served_catalog.h"
#include "service/catalog_updates/catalog_build.h"
#include "tools/gen-catalog/catalog_generator.h"

namespace {

const std::string& hundred_thousand_ads() {
  static const std::string text = [] {
    tools::gen_catalog::GeneratorOptions options;
    options.ads = 100'000;
    options.placements = 1'000;
    return tools::gen_catalog::generate_catalog(options);
  }();
  return text;
}

void BM_CatalogBuildParse(benchmark::State& state) {
  const std::string& text = hundred_thousand_ads();
  for (auto _ : state) {
    simdjson::dom::parser parser;
    const simdjson::padded_string padded(text);
    simdjson::dom::element root;
    if (parser.parse(padded).get(root) != simdjson::SUCCESS) state.SkipWithError("the catalog does not parse");
    benchmark::DoNotOptimize(root);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_CatalogBuildParse)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_CatalogBuildLoad(benchmark::State& state) {
  const std::string& text = hundred_thousand_ads();
  decision::catalog::LoadResult loaded;
  for (auto _ : state) {
    loaded = decision::catalog::load_catalog(text);
    if (!loaded.ok()) state.SkipWithError("the catalog is refused");
    benchmark::DoNotOptimize(loaded.snapshot);
  }
}
BENCHMARK(BM_CatalogBuildLoad)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_CatalogBuildServe(benchmark::State& state) {
  const decision::catalog::LoadResult loaded = decision::catalog::load_catalog(hundred_thousand_ads());
  if (!loaded.ok()) {
    state.SkipWithError("the catalog is refused");
    return;
  }
  decision::endpoint::PlacementLabels labels;
  std::shared_ptr<const decision::endpoint::ServedCatalog> served;
  for (auto _ : state) {
    served = decision::endpoint::make_served_catalog(loaded.snapshot, &labels);
    benchmark::DoNotOptimize(served);
  }
}
BENCHMARK(BM_CatalogBuildServe)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_CatalogBuildWhole(benchmark::State& state) {
  const std::string& text = hundred_thousand_ads();
  decision::endpoint::PlacementLabels labels;
  service::BuiltCatalog built;
  for (auto _ : state) {
    built = service::build_catalog_from_text(text, "benchmark", labels);
    if (!built.ok()) state.SkipWithError("the catalog is refused");
    benchmark::DoNotOptimize(built.served);
  }
}
BENCHMARK(BM_CatalogBuildWhole)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
