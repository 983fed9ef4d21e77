#include "perf/allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<uint64_t> g_allocations{0};
}  // namespace

namespace perf {

uint64_t allocations_so_far() { return g_allocations.load(std::memory_order_relaxed); }

}  // namespace perf

// The replaceable allocation functions. libstdc++'s array and nothrow forms call these,
// and its default delete calls free(), so the pair stays matched.
void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
