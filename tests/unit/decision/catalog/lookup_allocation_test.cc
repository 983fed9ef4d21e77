// A decision's look-ups allocate nothing: placement key -> placement, candidates, ids.
// Counted by replacing the global operator new for this test executable.
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <new>
#include <string>

#include "tests/unit/decision/catalog/catalog_fixtures.h"

// GCC sees std::free in the replaced delete and a `new` expression elsewhere in this file
// and warns; the pairing is right, both replaced operators use malloc/free.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {

bool g_counting = false;
size_t g_allocations = 0;

}  // namespace

void* operator new(size_t size) {
  if (g_counting) ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return ::operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  if (g_counting) ++g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept {
  return ::operator new(size, tag);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace decision::catalog {
namespace {

size_t allocations_while(const std::function<void()>& work) {
  g_allocations = 0;
  g_counting = true;
  work();
  g_counting = false;
  return g_allocations;
}

TEST(LookupAllocation, CounterSeesAllocations) {
  EXPECT_GE(allocations_while([] { std::string s(100, 'x'); }), 1u);
}

TEST(LookupAllocation, PlacementLookupAndCandidatesAllocateNothing) {
  // A key past the small-string buffer: building a std::string from it would allocate.
  constexpr std::string_view kLongKey = "homepage_top_banner_in_the_masthead";
  const auto catalog =
      testing::load_ok(testing::edit(testing::kDesignExample, R"("key": "home_top")",
                                     std::string(R"("key": ")") + std::string(kLongKey) + "\""));
  ASSERT_NE(catalog, nullptr);
  const std::string request_key(kLongKey);  // as it arrives, in request memory
  const std::string unknown_key = "no_such_placement_with_a_long_name";
  size_t tiers = 0;
  const size_t allocations = allocations_while([&] {
    const std::optional<uint32_t> p = catalog->index().placement_index(request_key);
    if (p) tiers += catalog->index().candidates(*p, FormatFilter::kAny).size();
    tiers += catalog->index().placement_index(unknown_key).has_value() ? 100 : 0;
    tiers += catalog->find_placement(std::string_view(request_key)) != nullptr ? 1 : 0;
    tiers += catalog->find_ad(1001) != nullptr ? 1 : 0;
    tiers += catalog->find_creative(2002).has_value() ? 1 : 0;
  });
  EXPECT_EQ(allocations, 0u);
  EXPECT_EQ(tiers, 4u);
}

}  // namespace
}  // namespace decision::catalog
