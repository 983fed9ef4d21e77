#pragma once
// Counts calls of the global operator new in any test binary linking test_allocation_count, so a test can say "this
// call allocates nothing" (STYLE: no allocation on the request path).
#include <cstdint>
#include <functional>

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

// Allocations made by work().
inline uint64_t allocations_while(const std::function<void()>& work) {
  const AllocationCount count;
  work();
  return count.since();
}

}  // namespace decision::testing
