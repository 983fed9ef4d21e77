// JSON number literals: grammar and integer values.
#include "decision/request/json_number.h"

#include "gtest/gtest.h"

namespace decision::request {
namespace {

TEST(JsonNumber, GrammarOfRfc8259) {
  for (const char* ok : {"0", "-0", "1", "-1", "10", "1.5", "0.0", "1e5", "1E+5", "1e-5", "-1.25e-3",
                         "123456789012345678901234567890", "1e400"}) {
    EXPECT_TRUE(is_json_number(ok)) << ok;
  }
  for (const char* bad : {"", "-", "+1", "01", "-01", "1.", ".5", "1e", "1e+", "1.e5", "0x10", "1 ",
                          "Infinity", "NaN", "1.5.5", "1e5e5", "--1", "1f", "\xC2\xB2"}) {
    EXPECT_FALSE(is_json_number(bad)) << bad;
  }
}

TEST(JsonNumber, IntegralValueIsDecidedOnTheLiteral) {
  EXPECT_EQ(integral_value("3"), 3);
  EXPECT_EQ(integral_value("3.0"), 3);
  EXPECT_EQ(integral_value("0.3e1"), 3);
  EXPECT_EQ(integral_value("300e-2"), 3);
  EXPECT_EQ(integral_value("1.50e1"), 15);
  EXPECT_EQ(integral_value("0.03e2"), 3);
  EXPECT_EQ(integral_value("-7"), -7);
  EXPECT_EQ(integral_value("-0.0"), 0);
  EXPECT_EQ(integral_value("0e999999999999"), 0);
  EXPECT_EQ(integral_value("9223372036854775807"), INT64_MAX);
  EXPECT_EQ(integral_value("-9223372036854775807"), -INT64_MAX);
  EXPECT_FALSE(integral_value("2.5"));
  EXPECT_FALSE(integral_value("1.0000000000000000001"));
  EXPECT_FALSE(integral_value("25e-1"));
  EXPECT_FALSE(integral_value("1e-99999999999999999999"));
  EXPECT_FALSE(integral_value("9223372036854775808"));
  EXPECT_FALSE(integral_value("1e19"));
  EXPECT_FALSE(integral_value("1e99999999999999999999"));
  EXPECT_FALSE(integral_value("x"));
}

TEST(JsonNumber, DigitsValueRefusesOverflowAndNonDigits) {
  EXPECT_EQ(digits_value("0"), 0u);
  EXPECT_EQ(digits_value("007"), 7u);
  EXPECT_EQ(digits_value("18446744073709551615"), UINT64_MAX);
  EXPECT_FALSE(digits_value("18446744073709551616"));
  EXPECT_FALSE(digits_value(""));
  EXPECT_FALSE(digits_value("-1"));
  EXPECT_FALSE(digits_value("1.0"));
  EXPECT_FALSE(digits_value("1e3"));
}

TEST(JsonNumber, TrimTokenDropsJsonWhitespaceOnly) {
  EXPECT_EQ(trim_token("12 \t\r\n"), "12");
  EXPECT_EQ(trim_token("12\v"), "12\v");
}

}  // namespace
}  // namespace decision::request
