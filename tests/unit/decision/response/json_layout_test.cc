// The layout golden files are kept in (tests/support/json_golden.h): whitespace added only
// between tokens, so taking it out again gives the body back byte for byte.
#include <gtest/gtest.h>

#include "tests/support/json_golden.h"

namespace {

TEST(JsonGoldenLayout, OneMemberPerLineAndBackByteForByte) {
  const std::string body = R"({"a":[1,{"b":"x, y: {z}"},[]],"c":{},"d":"q\"[\\","e":null})";
  const std::string laid_out = test_support::laid_out_json(body);
  EXPECT_EQ(laid_out,
            "{\n"
            "  \"a\": [\n"
            "    1,\n"
            "    {\n"
            "      \"b\": \"x, y: {z}\"\n"
            "    },\n"
            "    []\n"
            "  ],\n"
            "  \"c\": {},\n"
            "  \"d\": \"q\\\"[\\\\\",\n"
            "  \"e\": null\n"
            "}\n");
  EXPECT_EQ(test_support::compact_json(laid_out), body);
}

TEST(JsonGoldenLayout, SpacesInsideStringsAreKept) {
  EXPECT_EQ(test_support::compact_json("{ \"a b\" : \" c \" }"), R"({"a b":" c "})");
}

}  // namespace
