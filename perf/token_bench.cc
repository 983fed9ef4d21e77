// Tracking tokens: every creative in a decision carries two or more, so their cost is a
// direct share of decision time.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "perf/allocation_counter.h"
#include "tracking/key_ring.h"
#include "tracking/token_codec.h"

namespace {

tracking::KeyRing bench_ring() {
  std::vector<tracking::KeyEntry> entries;
  entries.push_back(*tracking::generate_key_entry(1, 1'763'683'200));
  return *tracking::KeyRing::from_entries(std::move(entries));
}

tracking::TrackingEvent click_event() {
  tracking::TrackingEvent e;
  e.kind = tracking::EventKind::kClick;
  e.ad_id = 1001;
  e.creative_id = 2002;
  e.placement_id = 7;
  e.request_id.fill(0x5a);
  e.user_id = "user-4f1c9a2e-7b7d-4a5e-9a53-0c2b1f6e8d10";
  e.issued_at_s = 1'763'683'200;
  e.expires_at_s = e.issued_at_s + 3600;
  e.click_url = "https://acme.example.com/lisbon?utm_source=decisiond&utm_medium=native";
  return e;
}

void BM_EncodeClickToken(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  tracking::TokenCodec codec(ring);
  const tracking::TrackingEvent event = click_event();
  std::string out;
  out.reserve(512);
  (void)codec.encode(event, out);
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    out.clear();
    benchmark::DoNotOptimize(codec.encode(event, out));
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
  state.counters["token_chars"] = static_cast<double>(out.size());
}
BENCHMARK(BM_EncodeClickToken);

void BM_DecodeClickToken(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  tracking::TokenCodec codec(ring);
  std::string token;
  (void)codec.encode(click_event(), token);
  std::string storage;
  storage.reserve(512);
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    const tracking::DecodedToken decoded = codec.decode(token, 1'763'683'300, storage);
    benchmark::DoNotOptimize(decoded.verdict);
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_DecodeClickToken);

void BM_RefuseTamperedToken(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  tracking::TokenCodec codec(ring);
  std::string token;
  (void)codec.encode(click_event(), token);
  token[token.size() / 2] = token[token.size() / 2] == 'A' ? 'B' : 'A';
  std::string storage;
  storage.reserve(512);
  for (auto _ : state) {
    const tracking::DecodedToken decoded = codec.decode(token, 1'763'683'300, storage);
    benchmark::DoNotOptimize(decoded.verdict);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RefuseTamperedToken);

}  // namespace
