#include "runtime/log/logfmt.h"

#include <string>

#include "gtest/gtest.h"

namespace runtime::log {
namespace {

std::string value_of(std::string_view value) {
  char buffer[512];
  LineText out(buffer, sizeof buffer);
  append_value(out, value);
  return std::string(out.view());
}

std::string timestamp(int64_t wall_ms) {
  char out[kTimestampBytes];
  format_timestamp(wall_ms, out);
  return std::string(out, kTimestampBytes);
}

TEST(Logfmt, APlainWordStaysBare) {
  EXPECT_EQ(value_of("catalog"), "catalog");
  EXPECT_EQ(value_of("127.0.0.1:8080"), "127.0.0.1:8080");
}

TEST(Logfmt, SpacesEqualsAndEmptyAreQuoted) {
  EXPECT_EQ(value_of("two words"), "\"two words\"");
  EXPECT_EQ(value_of("a=b"), "\"a=b\"");
  EXPECT_EQ(value_of(""), "\"\"");
}

TEST(Logfmt, QuotesAndBackslashesAreEscaped) {
  EXPECT_EQ(value_of(R"(say "hi")"), R"("say \"hi\"")");
  EXPECT_EQ(value_of(R"(C:\dir)"), R"("C:\\dir")");
}

TEST(Logfmt, NewlinesInAValueNeverBreakTheLine) {
  EXPECT_EQ(value_of("refused:\n  ads[0].weight: must be > 0"), R"("refused:\n  ads[0].weight: must be > 0")");
  EXPECT_EQ(value_of("a\r\tb"), R"("a\r\tb")");
}

TEST(Logfmt, OtherControlBytesAreUnicodeEscapes) {
  EXPECT_EQ(value_of(std::string("nul\0bell\a", 9)), R"("nul\u0000bell\u0007")");
  EXPECT_EQ(value_of("del\x7f"), R"("del\u007f")");
}

TEST(Logfmt, Utf8IsKeptAndBytesThatAreNotUtf8AreReplaced) {
  EXPECT_EQ(value_of("Lisbonne dès 49 €"), "\"Lisbonne dès 49 €\"");
  EXPECT_EQ(value_of("bad\xff byte"), R"("bad\ufffd byte")");
  EXPECT_EQ(value_of("cut \xe2\x82"), R"("cut \ufffd\ufffd")");
  EXPECT_EQ(value_of("overlong \xc0\xaf"), R"("overlong \ufffd\ufffd")");
  EXPECT_EQ(value_of("surrogate \xed\xa0\x80"), R"("surrogate \ufffd\ufffd\ufffd")");
}

TEST(Logfmt, TimestampsAreRfc3339InUtcWithMilliseconds) {
  EXPECT_EQ(timestamp(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(timestamp(1'763'683'200'123), "2025-11-21T00:00:00.123Z");
  EXPECT_EQ(timestamp(951'782'400'999), "2000-02-29T00:00:00.999Z");
  EXPECT_EQ(timestamp(4'102'444'799'999), "2099-12-31T23:59:59.999Z");
}

TEST(Logfmt, ALineIsItsHeadThenItsFieldsThenItsMessage) {
  char buffer[512];
  LineText out(buffer, sizeof buffer);
  const LineField fields[] = {{"suppressed", 12}};
  append_line(out, {1'763'683'200'123, Level::kWarn, "redis", 3}, fields, "connection lost: \"EOF\"");
  EXPECT_EQ(out.view(),
            "ts=2025-11-21T00:00:00.123Z level=warn component=redis core=3 suppressed=12 "
            "msg=\"connection lost: \\\"EOF\\\"\"\n");
}

TEST(Logfmt, ALineFromAnotherThreadHasNoCore) {
  char buffer[512];
  LineText out(buffer, sizeof buffer);
  append_line(out, {0, Level::kInfo, "main"}, {}, "stopped");
  EXPECT_EQ(out.view(), "ts=1970-01-01T00:00:00.000Z level=info component=main msg=stopped\n");
}

TEST(Logfmt, ALineCutByItsBufferStillEndsTheLine) {
  char buffer[48];
  LineText out(buffer, sizeof buffer);
  append_line(out, {0, Level::kError, "check"}, {}, "a message far longer than the room left for it");
  EXPECT_TRUE(out.cut());
  EXPECT_EQ(out.view().size(), sizeof buffer);
  EXPECT_EQ(out.view().back(), '\n');
  EXPECT_EQ(out.view().find('\n'), out.view().size() - 1);
}

}  // namespace
}  // namespace runtime::log
