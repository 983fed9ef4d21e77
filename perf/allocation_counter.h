#pragma once
// Counts calls of the global operator new in this benchmark binary (the counter of
// tests/support, shared with the unit tests), so each benchmark can
// report allocations per iteration: the hot paths promise none once warm (STYLE: no
// allocation after start-up on hot paths), and a number that drifts above 0 says which.
#include <cstdint>

#include <benchmark/benchmark.h>

#include "tests/support/allocation_count.h"

namespace perf {

using decision::testing::allocations_so_far;

// Reads the count at construction; report() publishes the allocations made since, per
// iteration, as the counter "allocs/iter".
class AllocationWatch {
 public:
  AllocationWatch() : start_(allocations_so_far()) {}
  void report(benchmark::State& state) const {
    state.counters["allocs/iter"] = benchmark::Counter(
        static_cast<double>(allocations_so_far() - start_), benchmark::Counter::kAvgIterations);
  }

 private:
  uint64_t start_;
};

}  // namespace perf
