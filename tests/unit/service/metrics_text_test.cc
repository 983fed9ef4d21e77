// Label values in the Prometheus text format: what must be escaped and nothing more.
#include "service/metrics_text.h"

#include <gtest/gtest.h>

#include <string>

namespace service {
namespace {

std::string label(std::string_view value) {
  std::string out;
  append_label_value(out, value);
  return out;
}

TEST(LabelValue, PlainTextIsLeftAsItIs) { EXPECT_EQ(label("home_top"), "home_top"); }

TEST(LabelValue, BackslashQuoteAndLineFeedAreEscaped) {
  EXPECT_EQ(label(R"(a\b)"), R"(a\\b)");
  EXPECT_EQ(label(R"(say "hi")"), R"(say \"hi\")");
  EXPECT_EQ(label("two\nlines"), R"(two\nlines)");
}

TEST(LabelValue, OtherBytesAreNotJsonEscaped) {
  // The format knows no \t, \r or \u escape: these go as they are.
  EXPECT_EQ(label("tab\there"), "tab\there");
  EXPECT_EQ(label("cr\rhere"), "cr\rhere");
  EXPECT_EQ(label("café/日本"), "café/日本");
}

TEST(LabelValue, AppendsToWhatIsThere) {
  std::string out = "x{k=\"";
  append_label_value(out, "\"");
  EXPECT_EQ(out, "x{k=\"\\\"");
}

}  // namespace
}  // namespace service
