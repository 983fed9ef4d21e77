// Arithmetic (cel-spec "Arithmetic"): checked int and uint, IEEE double, no mixing, and +
// concatenating strings, bytes and lists.
#include <gtest/gtest.h>

#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

TEST(CelArithmetic, IntOperators) {
  CelRunner cel;
  EXPECT_EQ(cel.run("40 + 2"), "42");
  EXPECT_EQ(cel.run("40 - 42"), "-2");
  EXPECT_EQ(cel.run("6 * -7"), "-42");
  EXPECT_EQ(cel.run("-7 / 2"), "-3");  // truncates toward zero
  EXPECT_EQ(cel.run("-7 % 2"), "-1");  // sign of the dividend
  EXPECT_EQ(cel.run("7 % -2"), "1");
  EXPECT_EQ(cel.run("-(42)"), "-42");
}

TEST(CelArithmetic, UintOperators) {
  CelRunner cel;
  EXPECT_EQ(cel.run("40u + 2u"), "42");
  EXPECT_EQ(cel.run("42u - 2u"), "40");
  EXPECT_EQ(cel.run("6u * 7u"), "42");
  EXPECT_EQ(cel.run("7u / 2u"), "3");
  EXPECT_EQ(cel.run("7u % 2u"), "1");
  EXPECT_EQ(cel.run("-(1u)"), "error: no matching overload");
}

TEST(CelArithmetic, DoubleOperatorsFollowIeee) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1.5 + 2.25"), "3.75");
  EXPECT_EQ(cel.run("1.5 - 2.25"), "-0.75");
  EXPECT_EQ(cel.run("1.5 * 2.0"), "3.0");
  EXPECT_EQ(cel.run("1.0 / 4.0"), "0.25");
  EXPECT_EQ(cel.run("1.0 / 0.0"), "\"Infinity\"");
  EXPECT_EQ(cel.run("-1.0 / 0.0"), "\"-Infinity\"");
  EXPECT_EQ(cel.run("0.0 / 0.0"), "\"NaN\"");
  EXPECT_EQ(cel.run("2.0 * 1e308"), "\"Infinity\"");
  EXPECT_EQ(cel.run("-(0.0)"), "-0.0");
  EXPECT_EQ(cel.run("5.0 % 2.0"), "error: no matching overload");
}

TEST(CelArithmetic, IntOverflowIsAnError) {
  CelRunner cel;
  EXPECT_EQ(cel.run("9223372036854775807 + 1"), "error: integer overflow");
  EXPECT_EQ(cel.run("-9223372036854775808 - 1"), "error: integer overflow");
  EXPECT_EQ(cel.run("-9223372036854775808 + -1"), "error: integer overflow");
  EXPECT_EQ(cel.run("5000000000 * 5000000000"), "error: integer overflow");
  EXPECT_EQ(cel.run("-9223372036854775808 * -1"), "error: integer overflow");
  EXPECT_EQ(cel.run("-(-9223372036854775808)"), "error: integer overflow");
  EXPECT_EQ(cel.run("-9223372036854775808 / -1"), "error: integer overflow");
  EXPECT_EQ(cel.run("-9223372036854775808 % -1"), "error: integer overflow");
  EXPECT_EQ(cel.run("9223372036854775807 + 0"), "9223372036854775807");
}

TEST(CelArithmetic, UintOverflowAndUnderflowAreErrors) {
  CelRunner cel;
  EXPECT_EQ(cel.run("18446744073709551615u + 1u"), "error: integer overflow");
  EXPECT_EQ(cel.run("0u - 1u"), "error: integer overflow");
  EXPECT_EQ(cel.run("5000000000u * 5000000000u"), "error: integer overflow");
}

TEST(CelArithmetic, DivisionAndModulusByZeroAreErrors) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1 / 0"), "error: divide by zero");
  EXPECT_EQ(cel.run("1 % 0"), "error: modulus by zero");
  EXPECT_EQ(cel.run("1u / 0u"), "error: divide by zero");
  EXPECT_EQ(cel.run("1u % 0u"), "error: modulus by zero");
}

TEST(CelArithmetic, ErrorsPointAtTheOperator) {
  CelRunner cel;
  EXPECT_EQ(cel.error_at("custom.a + 10 / custom.b", R"({"custom":{"a":1,"b":0}})"),
            "1:15: divide by zero");
}

TEST(CelArithmetic, NumericTypesDoNotMix) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1 + 1u"), "error: no matching overload");
  EXPECT_EQ(cel.run("1 + 1.0"), "error: no matching overload");
  EXPECT_EQ(cel.run("1.0 * 2"), "error: no matching overload");
  EXPECT_EQ(cel.run("double(1) + 1.0"), "2.0");
}

TEST(CelArithmetic, PlusConcatenates) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'ab' + 'cd'"), "\"abcd\"");
  EXPECT_EQ(cel.run("b'ab' + b'cd' == b'abcd'"), "true");
  EXPECT_EQ(cel.run("[1] + [2, 3]"), "[1,2,3]");
  EXPECT_EQ(cel.run("custom.tags + ['x']", R"({"custom":{"tags":["a","b"]}})"), R"(["a","b","x"])");
  EXPECT_EQ(cel.run("'a' + 1"), "error: no matching overload");
  EXPECT_EQ(cel.run("'a' + b'a'"), "error: no matching overload");
}

TEST(CelArithmetic, OperandErrorsPropagateLeftFirst) {
  CelRunner cel;
  EXPECT_EQ(cel.run("(1 / 0) + (1 % 0)"), "error: divide by zero");
  EXPECT_EQ(cel.run("1 + (1 % 0)"), "error: modulus by zero");
}

}  // namespace
}  // namespace cel
