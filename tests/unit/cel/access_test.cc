// Field selection, indexing, `in` and has() (cel-spec "Field selection", "Lists and
// maps"): on the request's host maps and on literals alike.
#include <gtest/gtest.h>

#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

constexpr std::string_view kRequest = R"({
  "custom": {"age": 21, "section": "sports", "tags": ["premium", "sports"],
             "member": true, "geo": {"country": "FR"}, "big": 18446744073709551615,
             "ratio": 0.5, "nothing": null},
  "device": {"os": "iOS"}
})";

TEST(CelAccess, FieldSelectionReadsTheHostMap) {
  CelRunner cel;
  EXPECT_EQ(cel.run("custom.age", kRequest), "21");
  EXPECT_EQ(cel.run("custom.section", kRequest), "\"sports\"");
  EXPECT_EQ(cel.run("custom.geo.country", kRequest), "\"FR\"");
  EXPECT_EQ(cel.run("device.os == 'iOS'", kRequest), "true");
}

TEST(CelAccess, JsonNumbersAreIntUintOrDouble) {
  CelRunner cel;
  EXPECT_EQ(cel.run("type(custom.age)", kRequest), "\"int\"");
  EXPECT_EQ(cel.run("type(custom.big)", kRequest), "\"uint\"");
  EXPECT_EQ(cel.run("type(custom.ratio)", kRequest), "\"double\"");
  EXPECT_EQ(cel.run("custom.nothing == null", kRequest), "true");
}

TEST(CelAccess, AMissingKeyIsAnErrorAtTheField) {
  CelRunner cel;
  EXPECT_EQ(cel.run("custom.missing == 1", kRequest), "error: no such key");
  EXPECT_EQ(cel.error_at("custom.age > 1 && custom.missing", kRequest), "1:26: no such key");
}

TEST(CelAccess, AnUnboundVariableIsAnError) {
  CelRunner cel;
  EXPECT_EQ(cel.run("app.bundle == 'x'", kRequest), "error: unbound variable");
  EXPECT_EQ(cel.error_at("true && app.bundle == 'x'", kRequest), "1:9: unbound variable");
}

TEST(CelAccess, SelectingFromANonMapIsAnError) {
  CelRunner cel;
  EXPECT_EQ(cel.run("custom.age.years", kRequest), "error: type does not support field selection");
  EXPECT_EQ(cel.run("custom.tags.first", kRequest), "error: type does not support field selection");
}

TEST(CelAccess, ListIndexing) {
  CelRunner cel;
  EXPECT_EQ(cel.run("custom.tags[1]", kRequest), "\"sports\"");
  EXPECT_EQ(cel.run("[7, 8, 9][2u]"), "9");
  EXPECT_EQ(cel.run("[7, 8, 9][1.0]"), "8");
  EXPECT_EQ(cel.run("[7, 8, 9][1.5]"), "error: invalid list index");
  EXPECT_EQ(cel.run("[7, 8, 9][3]"), "error: index out of bounds");
  EXPECT_EQ(cel.run("[7, 8, 9][-1]"), "error: index out of bounds");
  EXPECT_EQ(cel.run("[7, 8, 9]['0']"), "error: invalid list index");
}

TEST(CelAccess, MapIndexingComparesNumericKeysByValue) {
  CelRunner cel;
  EXPECT_EQ(cel.run("custom['section']", kRequest), "\"sports\"");
  EXPECT_EQ(cel.run("{1u: 'a', 2: 'b'}[1]"), "\"a\"");
  EXPECT_EQ(cel.run("{1u: 'a', 2: 'b'}[2u]"), "\"b\"");
  EXPECT_EQ(cel.run("{1u: 'a', 2: 'b'}[2.0]"), "\"b\"");
  EXPECT_EQ(cel.run("{1u: 'a', 2: 'b'}[2.5]"), "error: no such key");
  EXPECT_EQ(cel.run("{true: 'a'}[true]"), "\"a\"");
  EXPECT_EQ(cel.run("{'a': 1}[b'a']"), "error: no such key");
  EXPECT_EQ(cel.run("custom[1]", kRequest), "error: no such key");
  EXPECT_EQ(cel.run("1[0]"), "error: no matching overload");
}

TEST(CelAccess, MapLiteralKeysMustBeScalarsAndUnique) {
  CelRunner cel;
  EXPECT_EQ(cel.run("{1.5: 'a'}"), "error: unsupported map key type");
  EXPECT_EQ(cel.run("{null: 'a'}"), "error: unsupported map key type");
  EXPECT_EQ(cel.run("{1: 'a', 1u: 'b'}"), "error: repeated map key");
  EXPECT_EQ(cel.run("{custom.section: 1, 'sports': 2}", kRequest), "error: repeated map key");
}

TEST(CelAccess, InSearchesListsByEqualityAndMapsByKey) {
  CelRunner cel;
  EXPECT_EQ(cel.run("'premium' in custom.tags", kRequest), "true");
  EXPECT_EQ(cel.run("'basic' in custom.tags", kRequest), "false");
  EXPECT_EQ(cel.run("3.0 in [1, 2, 3]"), "true");
  EXPECT_EQ(cel.run("'a' in [1, 'a']"), "true");
  EXPECT_EQ(cel.run("'age' in custom", kRequest), "true");
  EXPECT_EQ(cel.run("2.0 in {2u: 1}"), "true");
  EXPECT_EQ(cel.run("b'a' in {'a': 1}"), "false");
  EXPECT_EQ(cel.run("1 in 1"), "error: no matching overload");
  EXPECT_EQ(cel.run("custom.country in ['FR', 'DE']", R"({"custom":{"country":"DE"}})"), "true");
}

TEST(CelAccess, HasTestsPresenceInMaps) {
  CelRunner cel;
  EXPECT_EQ(cel.run("has(custom.member)", kRequest), "true");
  EXPECT_EQ(cel.run("has(custom.absent)", kRequest), "false");
  EXPECT_EQ(cel.run("has(custom.nothing)", kRequest), "true");  // present, null
  EXPECT_EQ(cel.run("has(custom.geo.country)", kRequest), "true");
  EXPECT_EQ(cel.run("has({'a': 1}.a) && !has({}.a)"), "true");
  EXPECT_EQ(cel.run("has(custom.member) && custom.member", kRequest), "true");
  EXPECT_EQ(cel.run("has(custom.age.x)", kRequest), "error: type does not support field selection");
  EXPECT_EQ(cel.run("has(custom.absent.x)", kRequest), "error: no such key");
}

}  // namespace
}  // namespace cel
