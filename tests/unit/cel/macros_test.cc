// The macros all, exists, exists_one, map and filter (cel-spec "Macros"), over lists
// (elements) and maps (keys), with the error semantics of their expansions.
#include <gtest/gtest.h>

#include "cel/compile.h"
#include "cel/evaluator.h"
#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

TEST(CelMacros, AllAndExistsOverLists) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[1, 2, 3].all(x, x > 0)"), "true");
  EXPECT_EQ(cel.run("[1, 2, 3].all(x, x > 1)"), "false");
  EXPECT_EQ(cel.run("[1, 2, 3].exists(x, x == 2)"), "true");
  EXPECT_EQ(cel.run("[1, 2, 3].exists(x, x > 3)"), "false");
  EXPECT_EQ(cel.run("[].all(x, false) && ![].exists(x, true)"), "true");
}

TEST(CelMacros, IterateMapKeys) {
  CelRunner cel;
  EXPECT_EQ(cel.run("{'a': 1, 'b': 2}.all(k, k in ['a', 'b'])"), "true");
  EXPECT_EQ(cel.run("custom.exists(k, k == 'age')", R"({"custom":{"age":1}})"), "true");
  EXPECT_EQ(cel.run("{'a': 1, 'b': 2}.map(k, k + '!')"), R"(["a!","b!"])");
}

TEST(CelMacros, AFalsePredicateDecidesAllOverErrors) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[1, 2, 3].all(x, 6 / (2 - x) == 6)"), "false");  // error at 2, false at 3
  EXPECT_EQ(cel.run("[0, 1].all(x, 1 / x > 0)"), "error: divide by zero");
  EXPECT_EQ(cel.run("[1, 'a', 3].all(x, x % 2 == 1)"), "error: no matching overload");
}

TEST(CelMacros, ATruePredicateDecidesExistsOverErrors) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[0, 1].exists(x, 1 / x == 1)"), "true");
  EXPECT_EQ(cel.run("[0, 2].exists(x, 1 / x == 1)"), "error: divide by zero");
  EXPECT_EQ(cel.run("[1, 'foo', 3].exists(e, e == '10')"), "false");
}

TEST(CelMacros, ExistsOneCountsExactlyOneAndKeepsErrors) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[6, 7, 8].exists_one(x, x % 5 == 2)"), "true");
  EXPECT_EQ(cel.run("[0, 1, 2, 3].exists_one(x, x % 2 == 1)"), "false");
  EXPECT_EQ(cel.run("[].exists_one(x, true)"), "false");
  EXPECT_EQ(cel.run("[3, 2, 1, 0].exists_one(n, 12 / n > 1)"), "error: divide by zero");
}

TEST(CelMacros, MapTransformsAndFilterSelects) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[1, 2, 3].map(x, x * x)"), "[1,4,9]");
  EXPECT_EQ(cel.run("[1, 2, 3, 4].filter(x, x % 2 == 0)"), "[2,4]");
  EXPECT_EQ(cel.run("[1, 2, 3, 4].map(x, x % 2 == 0, x * 10)"), "[20,40]");
  EXPECT_EQ(cel.run("[].map(x, x)"), "[]");
  EXPECT_EQ(cel.run("custom.tags.filter(t, t.startsWith('s'))",
                    R"({"custom":{"tags":["premium","sports","shop"]}})"),
            R"(["sports","shop"])");
}

TEST(CelMacros, MapAndFilterFailOnAnyError) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[2, 1, 0].map(n, 4 / n)"), "error: divide by zero");
  EXPECT_EQ(cel.run("[3, 2, 1, 0].filter(n, 12 / n > 4)"), "error: divide by zero");
  EXPECT_EQ(cel.run("[1, 2].filter(n, n)"), "error: no matching overload");
}

TEST(CelMacros, Nest) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[1, 2].map(x, [10, 20].map(y, x * y))"), "[[10,20],[20,40]]");
  EXPECT_EQ(cel.run("['signer'].filter(s, ['artifact'].all(a, true))"), R"(["signer"])");
  EXPECT_EQ(cel.run("[1, 2].exists(x, [2, 3].exists(y, x == y))"), "true");
}

TEST(CelMacros, RangeMustBeAListOrMap) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'abc'.all(c, true)"), "error: no matching overload");
  EXPECT_EQ(cel.run("custom.missing.all(c, true)", R"({"custom":{}})"), "error: no such key");
}

TEST(CelMacros, IterationsAreBoundedPerEvaluation) {
  const absl::StatusOr<Program> program = compile("[1, 2, 3, 4].all(x, [1, 2, 3, 4].all(y, true))");
  ASSERT_TRUE(program.ok());
  Evaluator bounded(EvaluatorLimits{.iterations_max = 10});
  const Value result = bounded.evaluate(*program, {});
  ASSERT_TRUE(result.is_error());
  EXPECT_EQ(result.error_code(), ErrorCode::kLimitExceeded);
  Evaluator enough(EvaluatorLimits{.iterations_max = 20});
  EXPECT_TRUE(holds(enough.evaluate(*program, {})));
}

TEST(CelMacros, ArenaIsBoundedPerEvaluation) {
  const absl::StatusOr<Program> program = compile("[1, 2, 3, 4, 5, 6, 7, 8].map(x, 'ab' + 'cd')");
  ASSERT_TRUE(program.ok());
  Evaluator bounded(EvaluatorLimits{.arena_bytes_max = 64});
  const Value result = bounded.evaluate(*program, {});
  ASSERT_TRUE(result.is_error());
  EXPECT_EQ(result.error_code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(program->error_text(result), "1:26: evaluation limit exceeded");
}

}  // namespace
}  // namespace cel
