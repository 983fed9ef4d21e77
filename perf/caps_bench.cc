// Frequency-cap and dedup state at scale (issue 9): a partition holding 10 million users
// with 3 capped ads each, its bytes per entry, and the cost of a look-up and an update on
// random users; the dedup set with 10 million live tokens.
#include <memory>
#include <random>
#include <string>

#include <benchmark/benchmark.h>

#include "caps/cap_partition.h"
#include "caps/user_key.h"
#include "tracking/dedup/impression_dedup.h"

namespace {

constexpr uint64_t kUsers = 10'000'000;
constexpr uint64_t kAdsPerUser = 3;
constexpr int64_t kNow = 1'790'000'000;
const caps::CapRule kCap[] = {{3, 86400}};  // one cap per ad, 3 a day

// Built once for every benchmark of the file: 30 million entries take a few seconds.
caps::CapPartition& big_partition() {
  static std::unique_ptr<caps::CapPartition> partition = [] {
    auto p = std::make_unique<caps::CapPartition>();
    for (uint64_t u = 0; u < kUsers; ++u) {
      const uint64_t key = caps::user_key("user-" + std::to_string(u));
      for (uint64_t ad = 1; ad <= kAdsPerUser; ++ad) p->record(key, ad, kCap, kNow - static_cast<int64_t>(u % 3600));
    }
    return p;
  }();
  return *partition;
}

void BM_CapLookup10MUsers(benchmark::State& state) {
  caps::CapPartition& p = big_partition();
  std::mt19937_64 random(1);
  std::vector<uint64_t> keys(1 << 16);
  for (uint64_t& k : keys) k = caps::user_key("user-" + std::to_string(random() % kUsers));
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
  std::vector<uint64_t> keys(1 << 16);
  for (uint64_t& k : keys) k = caps::user_key("user-" + std::to_string(random() % kUsers));
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

void BM_DedupFirstSighting10MLive(benchmark::State& state) {
  static std::unique_ptr<tracking::dedup::ImpressionDedup> dedup = [] {
    auto d = std::make_unique<tracking::dedup::ImpressionDedup>();
    std::mt19937_64 random(3);
    for (uint64_t i = 0; i < kUsers; ++i) d->first_sighting(random(), kNow + 3600, kNow);
    return d;
  }();
  std::mt19937_64 random(4);
  for (auto _ : state) benchmark::DoNotOptimize(dedup->first_sighting(random(), kNow + 3600, kNow));
  state.counters["live_tokens"] = static_cast<double>(dedup->entries());
  state.counters["bytes_per_token"] = static_cast<double>(dedup->bytes()) / static_cast<double>(dedup->entries());
}
BENCHMARK(BM_DedupFirstSighting10MLive);

}  // namespace
