// A decision's look-ups allocate nothing: placement key -> placement, candidates, ids.
// Counted by the test-support allocation counter (tests/support/allocation_count.h).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "tests/support/allocation_count.h"
#include "tests/unit/decision/catalog/catalog_fixtures.h"

namespace decision::catalog {
namespace {

using decision::testing::allocations_while;

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
