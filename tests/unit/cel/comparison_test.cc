// Equality and ordering (cel-spec "Equality", "Ordering"; the conformance suite decides
// the edge cases): numbers compare by value across int, uint and double; other types are
// unequal to each other and unordered.
#include <gtest/gtest.h>

#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

TEST(CelComparison, NumbersAreEqualAcrossTypes) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1 == 1.0"), "true");
  EXPECT_EQ(cel.run("1 == 1u"), "true");
  EXPECT_EQ(cel.run("1u == 1.0"), "true");
  EXPECT_EQ(cel.run("2 != 2.5"), "true");
  EXPECT_EQ(cel.run("-1 == 18446744073709551615u"), "false");
}

TEST(CelComparison, NumbersAreOrderedAcrossTypes) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1u < 2"), "true");
  EXPECT_EQ(cel.run("-1 < 0u"), "true");
  EXPECT_EQ(cel.run("1 < 1.5"), "true");
  EXPECT_EQ(cel.run("2.5 > 2u"), "true");
  EXPECT_EQ(cel.run("9223372036854775808u > 9223372036854775807"), "true");
  EXPECT_EQ(cel.run("18446744073709551615u < 18446744073709590000.0"), "true");
  EXPECT_EQ(cel.run("-9223372036854775808 > -9223372036854777857.0"), "true");
}

TEST(CelComparison, IntAgainstDoubleComparesAsDoubleInsideTheIntRange) {
  // cel-go's rule, pinned by the conformance suite: INT64_MAX is not below 2^63 as a double.
  CelRunner cel;
  EXPECT_EQ(cel.run("9223372036854775807 < 9223372036854775808.0"), "false");
  EXPECT_EQ(cel.run("9223372036854775807 == 9223372036854775808.0"), "true");
}

TEST(CelComparison, NanEqualsNothingAndIsUnordered) {
  CelRunner cel;
  EXPECT_EQ(cel.run("0.0/0.0 == 0.0/0.0"), "false");
  EXPECT_EQ(cel.run("0.0/0.0 != 0.0/0.0"), "true");
  EXPECT_EQ(cel.run("1 == 0.0/0.0"), "false");
  EXPECT_EQ(cel.run("0.0/0.0 < 1.0 || 0.0/0.0 >= 1.0"), "false");
}

TEST(CelComparison, DifferentTypesAreUnequalNotErrors) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1 == 'a'"), "false");
  EXPECT_EQ(cel.run("null == false"), "false");
  EXPECT_EQ(cel.run("'1' != 1"), "true");
  EXPECT_EQ(cel.run("[1] == {1: 1}"), "false");
  EXPECT_EQ(cel.run("b'a' == 'a'"), "false");
}

TEST(CelComparison, DifferentTypesHaveNoOrder) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'a' < 1"), "error: no matching overload");
  EXPECT_EQ(cel.run("null < null"), "error: no matching overload");
  EXPECT_EQ(cel.run("[1] < [2]"), "error: no matching overload");
  EXPECT_EQ(cel.run("{1: 1} <= {1: 1}"), "error: no matching overload");
  EXPECT_EQ(cel.run("int < uint"), "error: no matching overload");
}

TEST(CelComparison, StringsOrderByCodePoint) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'a' < 'b' && 'B' < 'a' && '' < 'a' && 'abc' < 'abd'"), "true");
  EXPECT_EQ(cel.run("'z' < 'é'"), "true");  // U+007A < U+00E9
  EXPECT_EQ(cel.run("'abc' <= 'abc' && 'abc' >= 'abc'"), "true");
}

TEST(CelComparison, BytesOrderByByteAndBoolsFalseFirst) {
  CelRunner cel;
  EXPECT_EQ(cel.run("b'\\x00\\x01' < b'\\x01'"), "true");
  EXPECT_EQ(cel.run("b'' < b'\\x00'"), "true");
  EXPECT_EQ(cel.run("false < true && !(true < true)"), "true");
}

TEST(CelComparison, ListsAreEqualElementByElement) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[1, 'a', [2.0]] == [1, 'a', [2]]"), "true");
  EXPECT_EQ(cel.run("[1, 2] == [2, 1]"), "false");
  EXPECT_EQ(cel.run("[1] == [1, 1]"), "false");
  EXPECT_EQ(cel.run("custom.tags == ['a', 'b']", R"({"custom":{"tags":["a","b"]}})"), "true");
}

TEST(CelComparison, MapsAreEqualByContentInAnyOrder) {
  CelRunner cel;
  EXPECT_EQ(cel.run("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}"), "true");
  EXPECT_EQ(cel.run("{1: 1.0, 2u: 3u} == {1u: 1, 2: 3.0}"), "true");
  EXPECT_EQ(cel.run("{'a': 1} == {'a': 2}"), "false");
  EXPECT_EQ(cel.run("{'a': 1} == {'b': 1}"), "false");
  EXPECT_EQ(cel.run("custom == {'age': 21}", R"({"custom":{"age":21}})"), "true");
}

TEST(CelComparison, NullAndTypesHaveEquality) {
  CelRunner cel;
  EXPECT_EQ(cel.run("null == null"), "true");
  EXPECT_EQ(cel.run("custom.x == null", R"({"custom":{"x":null}})"), "true");
  EXPECT_EQ(cel.run("type(1) == type(2) && type(1) != type(1u)"), "true");
}

}  // namespace
}  // namespace cel
