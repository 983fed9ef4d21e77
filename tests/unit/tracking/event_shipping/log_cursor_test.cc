// The shipper's reader (tracking/event_shipping/log_cursor.h): whole lines on disk, in seq
// order, file after file; a line being written waits; a torn one is passed over.
#include "tracking/event_shipping/log_cursor.h"

#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/unit/tracking/event_shipping/log_dir.h"

namespace tracking::event_shipping {
namespace {

// Lists the directory at every end of file: the tests decide when a later file exists.
constexpr CursorSettings kEveryTime{.chunk_bytes = 256, .list_interval_ms = 0};

std::vector<uint64_t> drain(LogCursor& cursor) {
  std::vector<uint64_t> seqs;
  while (const std::optional<ShippableLine> line = cursor.next(0)) seqs.push_back(line->seq);
  return seqs;
}

TEST(LogCursor, ReadsWholeLinesInSeqOrderAcrossFilesAndChunks) {
  LogDir log;
  log.append(0, LogDir::lines(0, 10));
  log.append(10, LogDir::lines(10, 5));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(cursor.torn_lines(), 0u);
}

TEST(LogCursor, AShippableLineIsTheLineWithoutItsLineFeedAndSaysWhereItStarts) {
  LogDir log;
  log.append(0, LogDir::line(0) + LogDir::line(1, 1'790'000'000'123));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  ASSERT_TRUE(cursor.next(0));
  const std::optional<ShippableLine> second = cursor.next(0);
  ASSERT_TRUE(second);
  const std::string expected = LogDir::line(1, 1'790'000'000'123);
  EXPECT_EQ(second->bytes, expected.substr(0, expected.size() - 1));
  EXPECT_EQ(second->time_ms, 1'790'000'000'123);
  EXPECT_EQ(second->position, (LogPosition{0, LogDir::line(0).size()}));
  EXPECT_EQ(second->length, LogDir::line(1, 1'790'000'000'123).size());
}

TEST(LogCursor, ALinePutBackComesAgainAndTheOrderCheckStaysRight) {
  LogDir log;
  log.append(0, LogDir::line(0) + "not an event line\n" + LogDir::line(2) + LogDir::line(3));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  ASSERT_EQ(cursor.next(0)->seq, 0u);
  const std::optional<ShippableLine> second = cursor.next(0);
  ASSERT_EQ(second->seq, 2u);
  cursor.unread();
  EXPECT_EQ(cursor.position(), second->position);
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(cursor.torn_lines(), 1u);  // the line passed over once, not twice
}

TEST(LogCursor, ALineWithoutItsLineFeedWaitsUntilItIsWhole) {
  LogDir log;
  const std::string line = LogDir::line(0);
  log.append(0, line.substr(0, 20));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  EXPECT_FALSE(cursor.next(0));
  log.append(0, line.substr(20));
  const std::optional<ShippableLine> whole = cursor.next(0);
  ASSERT_TRUE(whole);
  EXPECT_EQ(whole->seq, 0u);
  EXPECT_EQ(cursor.torn_lines(), 0u);
}

TEST(LogCursor, AFileGrowsUntilALaterFileExistsThenItsTornTailIsPassedOver) {
  LogDir log;
  log.append(0, LogDir::lines(0, 2) + LogDir::line(2).substr(0, 15));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{0, 1}));
  log.append(3, LogDir::lines(3, 2));
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{3, 4}));
  EXPECT_EQ(cursor.torn_lines(), 1u);
}

// The core's writes may land in any order (runtime/line_log.h): a later batch's lines can
// be in the file while an earlier batch's place still reads as zeros.
TEST(LogCursor, AHoleWaitsUntilItsWriteLandsAndIsPassedOverOnceALaterFileExists) {
  LogDir log;
  const std::string early = LogDir::lines(1, 2);
  log.append(0, LogDir::line(0) + std::string(early.size(), '\0') + LogDir::lines(3, 1));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{0})) << "nothing shipped past the hole";
  {
    std::fstream file(events::log_file_path(log.core_dir(0), 0), std::ios::in | std::ios::out);
    file.seekp(static_cast<std::streamoff>(LogDir::line(0).size()));
    file << early;  // the earlier write lands
  }
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(cursor.torn_lines(), 0u);

  LogDir cut;
  const std::string partial = LogDir::line(1).substr(0, 30);  // a short write's first part
  cut.append(0, LogDir::line(0) + partial + std::string(LogDir::line(1).size() - partial.size(), '\0') +
                    LogDir::lines(2, 1));
  LogCursor waiting(cut.core_dir(0), {}, 0, kEveryTime);
  EXPECT_EQ(drain(waiting), (std::vector<uint64_t>{0})) << "a line cut by a hole is not shipped";
  cut.append(4, LogDir::lines(4, 1));  // the core moved on: the hole is final
  EXPECT_EQ(drain(waiting), (std::vector<uint64_t>{2, 4}));
  EXPECT_EQ(waiting.torn_lines(), 1u);
}

TEST(LogCursor, LinesWrittenBeforeTheNextFileAppearedAreStillRead) {
  LogDir log;
  log.append(0, LogDir::lines(0, 2));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{0, 1}));
  log.append(0, LogDir::lines(2, 2));  // the core's last write to it, then its rotation
  log.append(4, LogDir::lines(4, 1));
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{2, 3, 4}));
}

TEST(LogCursor, StartsAtACheckpointPositionAndPassesOverLinesBeforeItsSeq) {
  LogDir log;
  log.append(0, LogDir::lines(0, 5));
  log.append(5, LogDir::lines(5, 5));
  const LogPosition third{0, 2 * LogDir::line(0).size()};
  LogCursor cursor(log.core_dir(0), third, 3, kEveryTime);
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{3, 4, 5, 6, 7, 8, 9}));
}

TEST(LogCursor, AFileGoneSinceTheCheckpointResumesAtTheNextOne) {
  LogDir log;
  log.append(5, LogDir::lines(5, 3));
  LogCursor cursor(log.core_dir(0), {0, 700}, 5, kEveryTime);
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{5, 6, 7}));
}

TEST(LogCursor, WhatIsNotAnEventLineOrGoesBackwardsIsPassedOverAndCounted) {
  LogDir log;
  log.append(0, LogDir::line(0) + "not a line\n" + LogDir::line(3) + LogDir::line(2) + LogDir::line(4));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  EXPECT_EQ(drain(cursor), (std::vector<uint64_t>{0, 3, 4}));
  EXPECT_EQ(cursor.torn_lines(), 2u);
}

TEST(LogCursor, NoFilesYetIsNothingToRead) {
  LogDir log;
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  EXPECT_FALSE(cursor.next(0));
  EXPECT_TRUE(cursor.error().empty());
  log.append(0, LogDir::lines(0, 1));
  EXPECT_TRUE(cursor.next(0));
}

TEST(LogCursor, PeekGivesTheTimeOfTheNextLine) {
  LogDir log;
  log.append(0, LogDir::line(0, 1'790'000'000'001) + LogDir::line(1, 1'790'000'000'002));
  LogCursor cursor(log.core_dir(0), {}, 0, kEveryTime);
  ASSERT_TRUE(cursor.next(0));
  EXPECT_EQ(cursor.peek_time_ms(), 1'790'000'000'002);
}

TEST(LogCursor, TheDirectoryIsListedAtMostOncePerInterval) {
  LogDir log;
  log.append(0, LogDir::lines(0, 1));
  LogCursor cursor(log.core_dir(0), {}, 0, {.chunk_bytes = 256, .list_interval_ms = 50});
  EXPECT_EQ(cursor.next(1000)->seq, 0u);
  EXPECT_FALSE(cursor.next(1000));  // listed: no later file
  log.append(1, LogDir::lines(1, 1));
  EXPECT_FALSE(cursor.next(1020));  // not listed again yet
  const std::optional<ShippableLine> next = cursor.next(1050);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->seq, 1u);
}

TEST(LineHead, ReadsSeqAndTimeOfAnEventLineOnly) {
  uint64_t seq = 0;
  int64_t time_ms = 0;
  EXPECT_TRUE(parse_line_head(R"({"seq":12,"time_ms":1790000000000,"kind":"click"})", seq, time_ms));
  EXPECT_EQ(seq, 12u);
  EXPECT_EQ(time_ms, 1'790'000'000'000);
  EXPECT_FALSE(parse_line_head(R"({"time_ms":1,"seq":2})", seq, time_ms));
  EXPECT_FALSE(parse_line_head(R"({"seq":,"time_ms":1})", seq, time_ms));
  EXPECT_FALSE(parse_line_head(R"({"seq":1,"time_ms":})", seq, time_ms));
  EXPECT_FALSE(parse_line_head("", seq, time_ms));
}

}  // namespace
}  // namespace tracking::event_shipping
