// The whole decision in process (issue: parse, select, write, tokens) on a generated
// 100,000-ad catalog over 1,000 placements, for the placement whose native candidates are
// nearest 200. Everything a core does for POST /v1/decision except the socket: the
// handler is driven with a parsed http::Request, so the figure is the decision's own cost.
//
// Two catalogs from one seed: with mixed targeting (about half the ads carry geo, location,
// custom, daypart or destination rules) and the same catalog without targeting. The
// request is the same for both and states what targeting reads: a city, a point, custom
// values the generated rules ask about, a destination, the user's IP and time zone. With
// targeting, the server also has the GeoIP and GeoNames fixtures; without, neither, so the
// difference between the two is everything targeting costs (per-request facts, widening,
// rules), against a catalog whose candidates all pass. Bodies rotate over 64 user ids.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "caps/cap_partition.h"

#include "decision/catalog/loader.h"
#include "decision/endpoint/decision_ask.h"
#include "decision/endpoint/decision_handler.h"
#include "decision/user_state/owner_core_route.h"
#include "decision/pacing/core_pacing.h"
#include "decision/geo/geoip_database.h"
#include "decision/geo/geonames_hierarchy.h"
#include "decision/request/request_reader.h"
#include "decision/targeting/rules/targeting_rule.h"
#include "perf/allocation_counter.h"
#include "perf/bench_keys.h"
#include "runtime/clock.h"
#include "tools/gen-catalog/catalog_generator.h"
#include "tracking/tokens/key_ring.h"

namespace {

constexpr uint32_t kAds = 100'000;
constexpr uint32_t kPlacements = 1'000;
constexpr size_t kTargetCandidates = 200;
constexpr int kUsers = 64;

struct BenchCatalog {
  std::shared_ptr<const decision::endpoint::ServedCatalog> served;
  std::string placement_key;
  size_t candidates = 0;
};

BenchCatalog load(bool targeting) {
  tools::gen_catalog::GeneratorOptions options;
  options.ads = kAds;
  options.placements = kPlacements;
  options.targeting = targeting;
  decision::catalog::LoadResult loaded =
      decision::catalog::load_catalog(tools::gen_catalog::generate_catalog(options));
  if (!loaded.snapshot) {
    std::fprintf(stderr, "generated catalog refused: %s\n", loaded.errors.front().to_string().c_str());
    std::abort();
  }
  BenchCatalog out;
  const decision::catalog::CatalogSnapshot& snapshot = *loaded.snapshot;
  size_t best_distance = SIZE_MAX;
  for (uint32_t p = 0; p < snapshot.placements().size(); ++p) {
    size_t candidates = 0;
    for (const auto& tier : snapshot.index().candidates(p, decision::catalog::FormatFilter::kNative)) {
      candidates += tier.ad_indexes.size();
    }
    const size_t distance = candidates > kTargetCandidates ? candidates - kTargetCandidates
                                                           : kTargetCandidates - candidates;
    if (distance < best_distance) {
      best_distance = distance;
      out.placement_key = snapshot.placements()[p].key;
      out.candidates = candidates;
    }
  }
  out.served = decision::endpoint::make_served_catalog(loaded.snapshot);
  return out;
}

const BenchCatalog& catalog(bool targeting) {
  static const BenchCatalog with_targeting = load(true);
  static const BenchCatalog without_targeting = load(false);
  return targeting ? with_targeting : without_targeting;
}

// The catalog without targeting with a delivery goal on every ad (docs/pacing.md), each
// flight ending after the benchmark's clock: every candidate goes through pacing.
const BenchCatalog& paced_catalog() {
  static const BenchCatalog paced = [] {
    const BenchCatalog& plain = catalog(false);
    decision::catalog::CatalogData data = plain.served->snapshot->data();
    constexpr int64_t kFlightEnd = 1'830'297'600;  // 2028-01-01
    for (decision::catalog::Ad& ad : data.ads) {
      ad.delivery = decision::catalog::DeliveryGoal{1'000'000'000, decision::catalog::Pacing::kEven};
      if (!ad.has_end()) ad.end_s = kFlightEnd;
    }
    BenchCatalog out = plain;
    out.served = decision::endpoint::make_served_catalog(
        std::make_shared<const decision::catalog::CatalogSnapshot>(std::move(data)));
    return out;
  }();
  return paced;
}

// The shared fixtures, loaded once (GeoIP2's test database and the GeoNames dumps).
decision::targeting::GeoSources geo_sources() {
  static const auto geoip = decision::geo::GeoIpDatabase::open(
      std::string(GEOIP_FIXTURE_DIR) + "/GeoIP2-City-Test.mmdb");
  static const auto hierarchy = decision::geo::GeoNamesHierarchy::load_dir(GEONAMES_FIXTURE_DIR);
  if (!geoip.ok() || !hierarchy.ok()) {
    std::fprintf(stderr, "geo fixtures: %s %s\n", geoip.status().ToString().c_str(),
                 hierarchy.status().ToString().c_str());
    std::abort();
  }
  return {&*hierarchy, &*geoip};
}

// Paris (a city, widened to Ile-de-France and France), a point near it, custom values
// that some generated rules accept and others refuse, London as the destination.
std::string request_body(const std::string& placement_key, int count, int user) {
  return R"({"placements":[{"key":")" + placement_key + R"(","count":)" + std::to_string(count) +
         R"(,"targeting":{"geo":[2988507],"location":[{"lat":48.8566,"lon":2.3522,"radius":5}],)"
         R"("custom":{"section":"sports","age":27,"tags":["premium","video"],"member":true,)"
         R"("tier":"silver","cart_value":72.5},"destination":[2643743]}}],)"
         R"("user":{"id":"user-)" + std::to_string(user * 7919) +
         R"(","ip":"81.2.69.142","timezone":"Europe/Paris","consent":{"gdpr":true}},)"
         R"("device":{"os":"android"}})";
}

// One core's decision handler over a benchmark catalog, as a core holds it: every user owned
// here, capped ads looked up in an (empty) partition, the goals in book when one is given.
struct BenchDecider {
  BenchDecider(const BenchCatalog& bench, bool with_geo, decision::pacing::CorePacing* book)
      : clock(1'795'737'600'000'000'000),  // 2026-11-27
        versions(api_versions::VersionTable::built_in()),
        ring(bench_ring()),
        keys(ring),
        handler(clock, 0, versions, keys, settings_for(with_geo), bench.served,
                route, nullptr, book) {}

  static decision::endpoint::DecisionSettings settings_for(bool with_geo) {
    decision::endpoint::DecisionSettings settings;
    settings.base_url = "https://ads.example.com";
    settings.seed = 1;
    if (with_geo) settings.geo = geo_sources();
    return settings;
  }

  const runtime::ManualClock clock;
  const api_versions::VersionTable versions;
  const tracking::KeyRing ring;
  tracking::CoreKeys keys;
  caps::CapPartition cap_partition;
  // Every user owned here, as on a core alone.
  decision::user_state::OwnerCoreRoute<decision::endpoint::DecisionAsk> route{"/v1/decision", cap_partition, 0,
                                                                              nullptr, nullptr, 0};
  decision::endpoint::DecisionHandler handler;
};

// Times one decision per iteration, the bodies rotating over kUsers user ids, after one
// round over them all warms every buffer; the counters every decision benchmark reports.
void run_decisions(benchmark::State& state, decision::endpoint::DecisionHandler& handler, const BenchCatalog& bench,
                   int count) {
  std::vector<std::string> bodies;
  for (int u = 0; u < kUsers; ++u) {
    bodies.push_back(request_body(bench.placement_key, count, u));
  }
  http::Request request;
  request.method = http::Method::kPost;
  request.path = "/v1/decision";
  request.headers[0] = {"Content-Type", "application/json"};
  request.headers[1] = {"Accept-Language", "fr-CH, fr;q=0.9, en;q=0.8"};
  request.headers[2] = {"X-Decision-Version", "2025-11-01"};
  request.header_count = 3;
  http::Response response;
  for (const std::string& body : bodies) {  // warm every buffer
    request.body = body;
    response.reset();
    handler.handle(request, response);
  }
  if (response.status() != 200) state.SkipWithError(response.body().c_str());

  size_t next = 0;
  uint64_t body_bytes = 0;
  const uint64_t creatives_before = handler.counters().creatives.get();
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    request.body = bodies[next];
    next = (next + 1) % bodies.size();
    response.reset();
    handler.handle(request, response);
    body_bytes += response.body().size();
    benchmark::DoNotOptimize(response.body().data());
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
  const auto iterations = static_cast<double>(state.iterations());
  state.counters["candidates"] = static_cast<double>(bench.candidates);
  state.counters["creatives"] =
      static_cast<double>(handler.counters().creatives.get() - creatives_before) / iterations;
  state.counters["body_bytes"] = static_cast<double>(body_bytes) / iterations;
}

// state.range(0): count; state.range(1): 1 with targeting, 0 without, 2 the catalog without
// rules but the server with its GeoIP and GeoNames data (what the per-request facts cost:
// the IP's record, the widened geo, the user's zone).
void BM_Decision(benchmark::State& state) {
  const BenchCatalog& bench = catalog(state.range(1) == 1);
  BenchDecider decider(bench, state.range(1) != 0, nullptr);
  run_decisions(state, decider.handler, bench, static_cast<int>(state.range(0)));
}
// Targeting alone, as a decision on the targeted catalog runs it: the request's facts, then
// every rule of every candidate of the placement (the selector asks about each candidate of
// a tier before it draws). Compared with BM_Decision/targeting:1 this is targeting's share of
// the decision, measured directly rather than as a difference of two noisy figures.
void BM_TargetingOnly(benchmark::State& state) {
  const BenchCatalog& bench = catalog(true);
  const decision::catalog::CatalogSnapshot& snapshot = *bench.served->snapshot;
  decision::request::RequestReader reader;
  decision::request::DecisionRequest request;
  const std::string body = request_body(bench.placement_key, 1, 0);
  if (!reader.read(body, {.format_understood = true, .destination_understood = true}, request).ok()) {
    state.SkipWithError("request refused");
    return;
  }
  const uint32_t placement = *snapshot.index().placement_index(bench.placement_key);
  decision::targeting::TargetingRule rule(geo_sources());
  const int64_t now_s = 1'795'737'600;  // 2026-11-27, as BM_Decision's clock
  uint32_t eligible = 0;
  const auto run = [&] {
    rule.begin_request(request, now_s, true, bench.served->custom_programs);
    rule.begin_placement(request.placements()[0]);
    eligible = 0;
    for (const auto& tier : snapshot.index().candidates(placement, decision::catalog::FormatFilter::kNative)) {
      for (uint32_t ad_index : tier.ad_indexes) {
        eligible += rule.eligible(snapshot.ads()[ad_index], ad_index) ? 1 : 0;
      }
    }
  };
  run();  // warm
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    run();
    benchmark::DoNotOptimize(eligible);
  }
  allocations.report(state);
  state.counters["candidates"] = static_cast<double>(bench.candidates);
  state.counters["eligible"] = eligible;
}
BENCHMARK(BM_TargetingOnly);

// BM_Decision/targeting:0 with every candidate paced (point 6 of issue 22: what pacing
// adds with goals engaged): this core's book holds an allotment for every goal, tokens that
// never run out and a throttle below 1, so each candidate costs its admission (a look-up
// and a draw) and each pick its spent token.
void BM_DecisionPaced(benchmark::State& state) {
  const BenchCatalog& bench = paced_catalog();
  decision::pacing::CorePacing book;
  book.set_goals(bench.served->paced_goals);  // as a core does at start and at each swap
  std::vector<decision::pacing::CoreAllotment> allotments;
  for (const decision::pacing::PacedGoal& goal : bench.served->paced_goals) {
    allotments.push_back({.ad_id = goal.ad_id, .tokens = uint64_t{1} << 60, .throttle = 0.99,
                          .goal = goal.flight.goal.impressions, .status = decision::pacing::GoalStatus::kOnTrack});
  }
  book.apply(allotments);
  BenchDecider decider(bench, false, &book);
  run_decisions(state, decider.handler, bench, static_cast<int>(state.range(0)));
  state.counters["paced_out"] = static_cast<double>(decider.handler.counters().paced_out.get());
}
BENCHMARK(BM_DecisionPaced)->ArgName("count")->Arg(1)->Arg(3);

BENCHMARK(BM_Decision)
    ->ArgNames({"count", "targeting"})
    ->Args({1, 0})
    ->Args({3, 0})
    ->Args({10, 0})
    ->Args({1, 1})
    ->Args({3, 1})
    ->Args({10, 1})
    ->Args({1, 2});

}  // namespace
