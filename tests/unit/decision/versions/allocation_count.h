#pragma once
// Counts calls of the global operator new in this test binary, so a test can say "this
// call allocates nothing" (STYLE: no allocation on the request path).
#include <cstdint>

namespace decision::testing {

uint64_t allocations_so_far();

// Allocations since construction.
class AllocationCount {
 public:
  AllocationCount() : start_(allocations_so_far()) {}
  uint64_t since() const { return allocations_so_far() - start_; }

 private:
  uint64_t start_;
};

}  // namespace decision::testing
