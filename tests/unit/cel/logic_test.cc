// &&, ||, ! and ?: (cel-spec "Logical operators"): && and || are commutative over errors,
// so a deciding operand on either side wins over an error on the other.
#include <gtest/gtest.h>

#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

TEST(CelLogic, TruthTables) {
  CelRunner cel;
  EXPECT_EQ(cel.run("true && true"), "true");
  EXPECT_EQ(cel.run("true && false"), "false");
  EXPECT_EQ(cel.run("false && true"), "false");
  EXPECT_EQ(cel.run("false || false"), "false");
  EXPECT_EQ(cel.run("false || true"), "true");
  EXPECT_EQ(cel.run("true || false"), "true");
  EXPECT_EQ(cel.run("!true"), "false");
  EXPECT_EQ(cel.run("!false"), "true");
}

TEST(CelLogic, FalseAndErrorIsFalseOnEitherSide) {
  CelRunner cel;
  EXPECT_EQ(cel.run("false && 1 / 0 == 1"), "false");
  EXPECT_EQ(cel.run("1 / 0 == 1 && false"), "false");
  EXPECT_EQ(cel.run("custom.missing && false", R"({"custom":{}})"), "false");
}

TEST(CelLogic, TrueOrErrorIsTrueOnEitherSide) {
  CelRunner cel;
  EXPECT_EQ(cel.run("true || 1 / 0 == 1"), "true");
  EXPECT_EQ(cel.run("1 / 0 == 1 || true"), "true");
  EXPECT_EQ(cel.run("custom.missing || true", R"({"custom":{}})"), "true");
}

TEST(CelLogic, UndecidedErrorsSurface) {
  CelRunner cel;
  EXPECT_EQ(cel.run("true && 1 / 0 == 1"), "error: divide by zero");
  EXPECT_EQ(cel.run("1 / 0 == 1 || false"), "error: divide by zero");
  EXPECT_EQ(cel.run("(1 / 0 == 1) && (1 % 0 == 1)"), "error: divide by zero");  // left first
}

TEST(CelLogic, NonBoolOperandsAreAbsorbedLikeErrors) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'horses' && false"), "false");
  EXPECT_EQ(cel.run("1 || true"), "true");
  EXPECT_EQ(cel.run("'a' && 'b'"), "error: no matching overload");
  EXPECT_EQ(cel.run("true && 1"), "error: no matching overload");
}

TEST(CelLogic, NotNeedsABool) {
  CelRunner cel;
  EXPECT_EQ(cel.run("!0"), "error: no matching overload");
  EXPECT_EQ(cel.run("!(1 / 0 == 1)"), "error: divide by zero");
}

TEST(CelLogic, ConditionalEvaluatesOneBranch) {
  CelRunner cel;
  EXPECT_EQ(cel.run("true ? 1 : 1 / 0"), "1");
  EXPECT_EQ(cel.run("false ? 1 / 0 : 'b'"), "\"b\"");
  EXPECT_EQ(cel.run("true ? 'a' : 17"), "\"a\"");  // branches may differ in type
}

TEST(CelLogic, ConditionalNeedsABoolCondition) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'cows' ? 1 : 2"), "error: no matching overload");
  EXPECT_EQ(cel.run("1 / 0 == 1 ? 1 : 2"), "error: divide by zero");
}

}  // namespace
}  // namespace cel
