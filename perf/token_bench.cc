// Tracking tokens: every creative in a decision carries two or more, so their cost is a
// direct share of decision time.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "perf/allocation_counter.h"
#include "perf/bench_keys.h"
#include "perf/evp_token_reference.h"
#include "tracking/tokens/key_ring.h"
#include "tracking/tokens/token_codec.h"
#include "tracking/tokens/xaes_gcm.h"

namespace {

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


// --- Seal + open, today's codec against the EVP baseline, side by side ------------------
// The payloads decisions issue: an impression (no URL) and a click with a 70-byte URL, both
// with a user id. Arguments: 0 impression, 1 click. Every benchmark named Token* runs with
// --benchmark_filter=Token, baseline and XAES side by side (docs/tokens.md).

tracking::TrackingEvent issued_event(int64_t which) {
  tracking::TrackingEvent e = click_event();
  if (which == 0) {
    e.kind = tracking::EventKind::kImpression;
    e.click_url = {};
  }
  return e;
}

// Seal alone: payload, cipher, base64url (and, for the baseline, its pooled random nonce).
void BM_TokenSeal_EvpBaseline(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  perf::EvpTokenReference codec(ring.signing_key());
  const tracking::TrackingEvent event = issued_event(state.range(0));
  std::string token;
  token.reserve(512);
  for (auto _ : state) {
    token.clear();
    benchmark::DoNotOptimize(codec.encode(event, token));
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["token_chars"] = static_cast<double>(token.size());
}
BENCHMARK(BM_TokenSeal_EvpBaseline)->Arg(0)->Arg(1);

void BM_TokenSeal_Xaes(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  tracking::TokenCodec codec(ring);
  const tracking::TrackingEvent event = issued_event(state.range(0));
  std::string token;
  token.reserve(512);
  for (auto _ : state) {
    token.clear();
    benchmark::DoNotOptimize(codec.encode(event, token));
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["token_chars"] = static_cast<double>(token.size());
}
BENCHMARK(BM_TokenSeal_Xaes)->Arg(0)->Arg(1);

// Open alone: base64url, cipher, payload (and, for XAES, the token id); the subkey cached.
void BM_TokenOpen_EvpBaseline(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  perf::EvpTokenReference codec(ring.signing_key());
  std::string token, storage;
  (void)codec.encode(issued_event(state.range(0)), token);
  storage.reserve(512);
  tracking::TrackingEvent read;
  for (auto _ : state) benchmark::DoNotOptimize(codec.decode(token, storage, read));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TokenOpen_EvpBaseline)->Arg(0)->Arg(1);

void BM_TokenOpen_Xaes(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  tracking::TokenCodec codec(ring);
  std::string token, storage;
  (void)codec.encode(issued_event(state.range(0)), token);
  storage.reserve(512);
  for (auto _ : state) benchmark::DoNotOptimize(codec.decode(token, 1'763'683'300, storage).verdict);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TokenOpen_Xaes)->Arg(0)->Arg(1);

void BM_TokenSealOpen_EvpBaseline(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  perf::EvpTokenReference codec(ring.signing_key());
  const tracking::TrackingEvent event = issued_event(state.range(0));
  std::string token, storage;
  token.reserve(512);
  storage.reserve(512);
  tracking::TrackingEvent read;
  for (auto _ : state) {
    token.clear();
    benchmark::DoNotOptimize(codec.encode(event, token));
    benchmark::DoNotOptimize(codec.decode(token, storage, read));
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["token_chars"] = static_cast<double>(token.size());
}
BENCHMARK(BM_TokenSealOpen_EvpBaseline)->Arg(0)->Arg(1);

void BM_TokenSealOpen_Xaes(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  tracking::TokenCodec codec(ring);
  const tracking::TrackingEvent event = issued_event(state.range(0));
  std::string token, storage;
  token.reserve(512);
  storage.reserve(512);
  const perf::AllocationWatch allocations;
  for (auto _ : state) {
    token.clear();
    benchmark::DoNotOptimize(codec.encode(event, token));
    benchmark::DoNotOptimize(codec.decode(token, 1'763'683'300, storage).verdict);
  }
  allocations.report(state);
  state.SetItemsProcessed(state.iterations());
  state.counters["token_chars"] = static_cast<double>(token.size());
}
BENCHMARK(BM_TokenSealOpen_Xaes)->Arg(0)->Arg(1);

// The cipher alone, seal then open in place, for the payload sizes decisions issue (an
// impression's 60 bytes, a click's 130): what the two paths do differently, without the
// payload layout and base64url they share.
size_t payload_size(int64_t which) {
  uint8_t buffer[tracking::kMaxPayloadBytes];
  return tracking::write_payload(issued_event(which), buffer);
}

void BM_TokenCipherSealOpen_EvpBaseline(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  perf::EvpTokenReference codec(ring.signing_key());
  std::vector<uint8_t> payload(payload_size(state.range(0)), 0x5a);
  uint8_t tag[16];
  for (auto _ : state) {
    benchmark::DoNotOptimize(codec.seal_payload(payload.data(), payload.size(), tag));
    benchmark::DoNotOptimize(codec.open_payload(payload.data(), payload.size(), tag));
  }
  state.counters["payload_bytes"] = static_cast<double>(payload.size());
}
BENCHMARK(BM_TokenCipherSealOpen_EvpBaseline)->Arg(0)->Arg(1);

void BM_TokenCipherSealOpen_Xaes(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  tracking::XaesKey derivation(ring.signing_key().aes_key);
  std::array<uint8_t, tracking::kXaesKeyBytes> subkey{};
  const std::array<uint8_t, tracking::kXaesPrefixBytes> prefix{};
  derivation.derive(prefix, subkey);
  tracking::GcmKey gcm;
  gcm.set_key(subkey);
  std::vector<uint8_t> payload(payload_size(state.range(0)), 0x5a);
  const uint8_t aad[3] = {0, 1, tracking::kPayloadVersion};
  const uint8_t nonce[tracking::kGcmNonceBytes] = {};
  uint8_t tag[16];
  for (auto _ : state) {
    benchmark::DoNotOptimize(gcm.seal(nonce, aad, payload, tag));
    benchmark::DoNotOptimize(gcm.open(nonce, aad, payload, tag));
  }
  state.counters["payload_bytes"] = static_cast<double>(payload.size());
}
BENCHMARK(BM_TokenCipherSealOpen_Xaes)->Arg(0)->Arg(1);

// Opening a token of another codec whose subkey is not cached: the cost of a miss.
void BM_TokenOpen_XaesSubkeyMiss(benchmark::State& state) {
  const tracking::KeyRing ring = bench_ring();
  tracking::TokenCodec opener(ring);
  std::vector<std::string> tokens;
  for (int i = 0; i < 1024; ++i) {  // four times the cache: nearly every open misses
    tracking::TokenCodec sealer(ring);
    std::string token;
    (void)sealer.encode(issued_event(0), token);
    tokens.push_back(token);
  }
  std::string storage;
  storage.reserve(512);
  size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(opener.decode(tokens[next], 1'763'683'300, storage).verdict);
    next = (next + 1) % tokens.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_TokenOpen_XaesSubkeyMiss);

}  // namespace
