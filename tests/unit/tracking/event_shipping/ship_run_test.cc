// Cutting runs (tracking/event_shipping/ship_run.h): consecutive lines of one file, within
// the bounds in lines and bytes; the data is the lines joined by line feeds.
#include "tracking/event_shipping/ship_run.h"

#include <string>

#include "gtest/gtest.h"

namespace tracking::event_shipping {
namespace {

constexpr std::string_view kLineText = "{\"seq\":0}";  // a line's bytes, without its line feed
constexpr uint32_t kLineLength = kLineText.size() + 1;

ShippableLine line_at(uint64_t seq, uint64_t file = 0, uint64_t offset_lines = UINT64_MAX) {
  const uint64_t at = offset_lines == UINT64_MAX ? seq : offset_lines;
  return {seq, static_cast<int64_t>(100 + seq), kLineText, LogPosition{file, at * kLineLength}, kLineLength};
}

TEST(RunBuilder, ARunIsItsFirstLinesPlaceAndTheLinesJoinedByLineFeeds) {
  RunBuilder run;
  EXPECT_TRUE(run.empty());
  const RunBounds bounds{.max_lines = 10, .max_bytes = 1000};
  for (uint64_t seq = 4; seq < 7; ++seq) {
    ASSERT_TRUE(run.fits(line_at(seq), bounds));
    run.add(line_at(seq));
  }
  EXPECT_EQ(run.extent().first_seq, 4u);
  EXPECT_EQ(run.extent().last_seq, 6u);
  EXPECT_EQ(run.extent().lines, 3u);
  EXPECT_EQ(run.extent().time_ms, 104);
  EXPECT_EQ(run.extent().position, (LogPosition{0, 4 * kLineLength}));
  EXPECT_EQ(run.extent().length, 3 * kLineLength);
  const std::string text(kLineText);
  EXPECT_EQ(run.data(), text + "\n" + text + "\n" + text);
  run.clear();
  EXPECT_TRUE(run.empty());
  EXPECT_EQ(run.data(), "");
}

TEST(RunBuilder, ARunStopsAtItsBoundInLines) {
  RunBuilder run;
  const RunBounds bounds{.max_lines = 2, .max_bytes = 1000};
  run.add(line_at(0));
  run.add(line_at(1));
  EXPECT_FALSE(run.fits(line_at(2), bounds));
}

TEST(RunBuilder, ARunStopsAtItsBoundInBytesButALineAloneMayPassIt) {
  RunBuilder run;
  const RunBounds bounds{.max_lines = 100, .max_bytes = 2 * kLineLength};
  run.add(line_at(0));
  EXPECT_TRUE(run.fits(line_at(1), bounds));
  run.add(line_at(1));
  EXPECT_FALSE(run.fits(line_at(2), bounds));
  RunBuilder alone;
  EXPECT_TRUE(alone.fits(line_at(0), RunBounds{.max_lines = 1, .max_bytes = 1}));
}

TEST(RunBuilder, ARunNeverSpansTwoFilesOrAGapInTheFile) {
  RunBuilder run;
  const RunBounds bounds{.max_lines = 100, .max_bytes = 100000};
  run.add(line_at(0));
  run.add(line_at(1));
  EXPECT_FALSE(run.fits(line_at(2, /*file=*/2, /*offset_lines=*/0), bounds));  // the next file
  EXPECT_FALSE(run.fits(line_at(2, 0, /*offset_lines=*/3), bounds));           // torn bytes passed over between
  EXPECT_TRUE(run.fits(line_at(2), bounds));
}

}  // namespace
}  // namespace tracking::event_shipping
