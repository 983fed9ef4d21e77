// Frequency-cap and dedup state at scale (issue 9): a partition holding 10 million users
// with 3 capped ads each, its bytes per entry, and the cost of a look-up and an update on
// random users; the dedup set with 10 million live tokens.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "caps/cap_partition.h"
#include "caps/user_key.h"
#include "perf/bench_caps.h"
#include "tracking/dedup/impression_dedup.h"

namespace {

constexpr uint64_t kCapUsers = 10'000'000;
constexpr uint64_t kAdsPerUser = 3;

// Built once for every benchmark of the file: 30 million entries take a few seconds.
caps::CapPartition& big_partition() {
  static std::unique_ptr<caps::CapPartition> partition = [] {
    auto p = std::make_unique<caps::CapPartition>();
    for (uint64_t u = 0; u < kCapUsers; ++u) {
      const uint64_t key = caps::user_key("user-" + std::to_string(u));
      for (uint64_t ad = 1; ad <= kAdsPerUser; ++ad) p->record(key, ad, kCap, kNow - static_cast<int64_t>(u % 3600));
    }
    return p;
  }();
  return *partition;
}

// The benchmarks below draw 2M random users (their slots, 64 MB of cache lines, are far
// larger than the caches) so that each call pays the cache miss a real request would.
void BM_CapLookup10MUsers(benchmark::State& state) {
  caps::CapPartition& p = big_partition();
  std::mt19937_64 random(1);
  std::vector<uint64_t> keys(1 << 21);
  for (uint64_t& k : keys) k = caps::user_key("user-" + std::to_string(random() % kCapUsers));
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.allows(keys[i], 1 + (i % kAdsPerUser), kCap, kNow));
    i = (i + 1) & (keys.size() - 1);
  }
  state.counters["entries"] = static_cast<double>(p.entries());
  state.counters["bytes_per_entry"] = static_cast<double>(p.bytes()) / static_cast<double>(p.entries());
}
BENCHMARK(BM_CapLookup10MUsers);

void BM_CapUpdate10MUsers(benchmark::State& state) {
  caps::CapPartition& p = big_partition();
  std::mt19937_64 random(2);
  std::vector<uint64_t> keys(1 << 21);
  for (uint64_t& k : keys) k = caps::user_key("user-" + std::to_string(random() % kCapUsers));
  size_t i = 0;
  for (auto _ : state) {
    p.record(keys[i], 1 + (i % kAdsPerUser), kCap, kNow + 1);
    i = (i + 1) & (keys.size() - 1);
  }
  state.counters["bytes_per_entry"] = static_cast<double>(p.bytes()) / static_cast<double>(p.entries());
}
BENCHMARK(BM_CapUpdate10MUsers);

// The user key (XXH3 of the id) is paid once per request, not per ad.
void BM_UserKey(benchmark::State& state) {
  const std::string id = "user-4f1c9a2e-7b7d-4a5e-9a53-0c2b1f6e8d10";
  for (auto _ : state) benchmark::DoNotOptimize(caps::user_key(id));
}
BENCHMARK(BM_UserKey);

// The dedup set holding kLiveTokens random token ids, built once; its bytes per token are
// taken right after the build, before the first-sighting benchmark adds more.
constexpr uint64_t kLiveTokens = 10'000'000;
constexpr uint64_t kTokenSeed = 3;

struct LiveTokens {
  tracking::dedup::ImpressionDedup dedup;
  double bytes_per_token = 0;
};

LiveTokens& live_tokens() {
  static std::unique_ptr<LiveTokens> live = [] {
    auto l = std::make_unique<LiveTokens>();
    std::mt19937_64 random(kTokenSeed);
    for (uint64_t i = 0; i < kLiveTokens; ++i) l->dedup.first_sighting(random(), kNow + 3600, kNow);
    l->bytes_per_token = static_cast<double>(l->dedup.bytes()) / static_cast<double>(l->dedup.entries());
    return l;
  }();
  return *live;
}

// A new token: a miss that inserts (random ids: a cache miss into ~300 MB).
void BM_DedupFirstSighting10MLive(benchmark::State& state) {
  LiveTokens& live = live_tokens();
  std::mt19937_64 random(4);
  for (auto _ : state) benchmark::DoNotOptimize(live.dedup.first_sighting(random(), kNow + 3600, kNow));
  state.counters["bytes_per_token"] = live.bytes_per_token;
  state.counters["live_tokens"] = static_cast<double>(live.dedup.entries());
}
BENCHMARK(BM_DedupFirstSighting10MLive);

// A repeat (a token called again): a hit that changes nothing. 2M of the ids, so that the
// slots visited do not fit in the caches either.
void BM_DedupRepeat10MLive(benchmark::State& state) {
  LiveTokens& live = live_tokens();
  std::mt19937_64 random(kTokenSeed);  // the ids the set was built with
  std::vector<uint64_t> seen(1 << 21);
  for (uint64_t& id : seen) id = random();
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(live.dedup.first_sighting(seen[i], kNow + 3600, kNow));
    i = (i + 1) & (seen.size() - 1);
  }
  state.counters["bytes_per_token"] = live.bytes_per_token;
}
BENCHMARK(BM_DedupRepeat10MLive);

}  // namespace
