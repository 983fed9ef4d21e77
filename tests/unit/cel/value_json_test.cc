// How values print as JSON (decisiond-cel's output): what JSON cannot say, said plainly.
#include <gtest/gtest.h>

#include "tests/unit/cel/cel_runner.h"

namespace cel {
namespace {

using testing::CelRunner;

TEST(CelValueJson, DoublesAlwaysLookLikeDoubles) {
  CelRunner cel;
  EXPECT_EQ(cel.run("1.0"), "1.0");
  EXPECT_EQ(cel.run("0.1"), "0.1");
  EXPECT_EQ(cel.run("1e300"), "1e+300");
  EXPECT_EQ(cel.run("1"), "1");
  EXPECT_EQ(cel.run("1u"), "1");
}

TEST(CelValueJson, NonFiniteDoublesPrintAsStrings) {
  CelRunner cel;
  EXPECT_EQ(cel.run("[1.0/0.0, -1.0/0.0, 0.0/0.0]"), R"(["Infinity","-Infinity","NaN"])");
}

TEST(CelValueJson, BytesPrintAsBase64) {
  CelRunner cel;
  EXPECT_EQ(cel.run("b'\\x00\\xff'"), "\"AP8=\"");
  EXPECT_EQ(cel.run("b'abc'"), "\"YWJj\"");
}

TEST(CelValueJson, StringsAreEscaped) {
  CelRunner cel;
  EXPECT_EQ(cel.run(R"("a\"b\\c\n\u0001é")"), R"("a\"b\\c\n\u0001é")");
}

TEST(CelValueJson, MapKeysPrintAsStrings) {
  CelRunner cel;
  EXPECT_EQ(cel.run("{1: 'a', true: 'b', 'k': 'c', 2u: 'd'}"),
            R"({"1":"a","true":"b","k":"c","2":"d"})");
}

TEST(CelValueJson, TypesPrintAsTheirNames) {
  CelRunner cel;
  EXPECT_EQ(cel.run("type(1)"), "\"int\"");
}

}  // namespace
}  // namespace cel
