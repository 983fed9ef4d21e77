// A warm evaluator allocates nothing from the heap (STYLE: no allocation after start-up
// on hot paths): values are 16-byte scalars or views, and what an evaluation builds goes
// to its arena, rewound and kept between evaluations.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <array>
#include <string_view>

#include "cel/arena.h"
#include "cel/compile.h"
#include "cel/evaluator.h"
#include "cel/json_host.h"
#include "cel/limits.h"
#include "tests/support/allocation_count.h"

namespace cel {
namespace {

constexpr std::string_view kCustom = R"({"age": 27, "section": "sports", "member": true,
  "tags": ["premium", "sports", "news"], "country": "DE", "name": "alice-z"})";

class CelAllocation : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(parser_.parse(kCustom.data(), kCustom.size()).get(document_), simdjson::SUCCESS);
    variables_[0] = json_value(document_, arena_);
  }

  // Allocations of `rounds` evaluations after one to warm up.
  uint64_t allocations_evaluating(std::string_view source, Value* last = nullptr) {
    const absl::StatusOr<Program> program = compile(source);
    EXPECT_TRUE(program.ok()) << program.status();
    if (!program.ok()) return 0;
    evaluator_.evaluate(*program, variables_);
    const decision::testing::AllocationCount count;
    Value result;
    for (int i = 0; i < 100; ++i) result = evaluator_.evaluate(*program, variables_);
    if (last != nullptr) *last = result;
    return count.since();
  }

  simdjson::dom::parser parser_;
  simdjson::dom::element document_;
  Arena arena_{kDefaultArenaBytesMax};
  std::array<Value, 4> variables_{};
  Evaluator evaluator_;
};

TEST_F(CelAllocation, TargetingExpressionsAllocateNothingOnceWarm) {
  for (const std::string_view source : {
           "custom.section == 'sports'",
           "custom.age >= 18 && custom.age < 35",
           "'premium' in custom.tags",
           "has(custom.member) && custom.member",
           "custom.tags.exists(t, t.startsWith('sp'))",
           "custom.country in ['FR', 'DE', 'ES']",
           "custom.name.matches('^a.*z$')",
           "size(custom.tags) * 2 + 1 > 3 ? 'big' : 'small'",
           "double(custom.age) / 2.0 > 10.5",
       }) {
    Value result;
    EXPECT_EQ(allocations_evaluating(source, &result), 0u) << source;
    EXPECT_FALSE(result.is_error()) << source;
  }
}

TEST_F(CelAllocation, BuiltValuesGoToTheArenaNotTheHeap) {
  for (const std::string_view source : {
           "custom.section + '/' + custom.country",
           "custom.tags.map(t, t + '!')",
           "custom.tags.filter(t, t.size() > 4)",
           "[custom.age, custom.section]",
           "{'a': custom.age}",
           "string(custom.age)",
       }) {
    EXPECT_EQ(allocations_evaluating(source), 0u) << source;
  }
}

TEST_F(CelAllocation, ErrorsAllocateNothing) {
  Value result;
  EXPECT_EQ(allocations_evaluating("custom.missing > 1 || 1 / 0 == 1", &result), 0u);
  EXPECT_TRUE(result.is_error());
}

}  // namespace
}  // namespace cel
